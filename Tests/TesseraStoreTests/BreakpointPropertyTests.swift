import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// Random specs with breakpoints (and carousels, offsets, right to left)
/// against a second reading of the contract: at cross extent X a layout's
/// parameters are the base object's overridden, field by field, by each
/// breakpoint whose `minExtent` ≤ X in array order (a carousel's kind runs
/// at its length L, but its breakpoints resolve at the container's extent). The reading merges the
/// JSON itself, lays the merged spec out, and filters its elements by brute
/// force (`ContractReading`); the store, holding the spec with its
/// breakpoints at widths on both sides of each, must answer the same.
@Suite("store: breakpoints, carousels, offsets and right to left against a second reading of the contract")
struct BreakpointPropertyTests {
    /// A parameter each kind reads, and a new valid value for it.
    static func override(kind: String, random: inout SeededRandom) -> (String, Any) {
        switch kind {
        case "scaledGrid": ("aspectRatio", random.quarter(0.5...2))
        case "pattern": ("spacing", ["before": random.quarter(0...10), "between": random.quarter(0...10), "after": random.quarter(0...10)])
        default: ("lineSpacing", random.quarter(0...12))
        }
    }

    /// `json` with one or two breakpoints added to some sections' layouts,
    /// and the `minExtent`s used.
    static func withBreakpoints(_ json: String, extent: Double, random: inout SeededRandom) throws -> (json: [String: Any], minimums: [Double]) {
        var spec = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var sections = try #require(spec["sections"] as? [[String: Any]])
        var minimums: [Double] = []
        for index in sections.indices where random.chance(0.7) {
            var layout = try #require(sections[index]["layout"] as? [String: Any])
            let kind = try #require(layout["kind"] as? String)
            // Around the container's extent, where every section's breakpoints resolve.
            var low = max(1, extent - 60)
            var breakpoints: [[String: Any]] = []
            for _ in 0..<random.int(1...2) {
                let minimum = random.quarter(low...(low + 60))
                let (field, value) = override(kind: kind, random: &random)
                breakpoints.append(["minExtent": minimum, field: value])
                minimums.append(minimum)
                low = minimum + 0.25
            }
            layout["breakpoints"] = breakpoints
            sections[index]["layout"] = layout
        }
        spec["sections"] = sections
        return (spec, minimums)
    }

    /// The contract's merge, at the container's `extent` (a carousel's too).
    static func merged(_ spec: [String: Any], extent: Double) throws -> Spec {
        var spec = spec
        var sections = try #require(spec["sections"] as? [[String: Any]])
        for index in sections.indices {
            var layout = try #require(sections[index]["layout"] as? [String: Any])
            guard let breakpoints = layout.removeValue(forKey: "breakpoints") as? [[String: Any]] else { continue }
            for breakpoint in breakpoints where try #require(breakpoint["minExtent"] as? Double) <= extent {
                for (field, value) in breakpoint where field != "minExtent" { layout[field] = value }
            }
            sections[index]["layout"] = layout
        }
        spec["sections"] = sections
        return try Spec(jsonText: String(decoding: try JSONSerialization.data(withJSONObject: spec), as: UTF8.self))
    }

    @Test("every answer at widths on both sides of each breakpoint equals the merged spec's, filtered by brute force",
          arguments: TestBackend.all, Array(UInt64(1)...10))
    func againstTheContract(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        generator.carouselChance = 0.4
        let (json, extent) = generator.spec(sections: 1...4, items: 1...150, axis: seed % 2 == 0 ? .vertical : .horizontal)
        var random = SeededRandom(seed: seed &* 7919)
        let (object, minimums) = try Self.withBreakpoints(json, extent: extent, random: &random)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        let spec = try Spec(jsonText: text)
        var sides: Set<Double> = [extent]
        for minimum in minimums {
            for width in [minimum - 0.25, minimum, minimum + 0.25] where width >= 1 { sides.insert(width) }
        }
        let widths = sides.sorted()
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "feed", crossExtents: widths)
        for width in widths {
            let reading = try LayoutEngine().layout(Self.merged(object, extent: width), crossExtent: width)
            let engine = try LayoutEngine().layout(spec, crossExtent: width)
            #expect(engine.elements == reading.elements, "seed \(seed) width \(width)\n\(text)")
            for round in 0..<6 {
                let (given, rect) = random.carouselQuery(sectionCount: spec.sections.count, size: reading.contentSize, offsets: -100...600, across: 600)
                let direction: LayoutDirection = round % 2 == 0 ? .leftToRight : .rightToLeft
                let query: LayoutQuery = round % 3 == 0 ? .viewport(rect) : .rect(rect)
                let answer = try await temporary.store.answer(query, name: "feed", crossExtent: width, direction: direction, offsets: OrthogonalOffsets(given))
                let expected = ContractReading.answer(
                    reading.elements, spec: spec, rect: rect, pinning: round % 3 == 0, offsets: given, direction: direction, contentSize: reading.contentSize
                )
                #expect(ContractReading.sameElements(answer.elements, expected), "seed \(seed) width \(width) \(query) offsets \(given) \(direction)\n\(text)")
            }
        }
    }
}
