import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// The contract's invariants, checked on random specs of every kind and both
/// axes. Each case prints its seed; rerun one with `seed` to reproduce it.
@Suite("properties on random specs")
struct PropertyTests {
    static let kinds = allKinds
    static let seeds: [UInt64] = Array(1...300)

    /// Cells may extend past the content by rounding only.
    static let tolerance = 1e-6

    @Test("every item is placed exactly once, inside its section's items region and the content length", arguments: seeds)
    func itemsPlacedOnceInsideContent(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: Self.kinds)
        let (json, extent) = generator.spec()
        let spec = try Spec(jsonText: json)
        let result = try LayoutEngine().layout(spec, crossExtent: extent)
        // What the engine streams, in chunks small enough to split sections:
        // each item must arrive exactly once, whatever order a kind writes in.
        var recorder = ItemRecorder()
        var chunks = SeededRandom(seed: seed)
        try LayoutEngine(chunkSize: chunks.int(1...7)).run(spec, crossExtent: extent, into: &recorder)
        #expect(recorder.sectionsBegun == Array(spec.sections.indices), "seed \(seed)")
        #expect(recorder.misfiled == 0, "seed \(seed)")
        for (index, section) in spec.sections.enumerated() {
            let expected = try #require(section.items.knownCount)
            #expect(recorder.problems(section: index, itemCount: expected) == [], "seed \(seed) section \(index)\n\(json)")
            let cells = result.elements(ofSection: index).filter { $0.kind == .cell }
            #expect(cells.map(\.item) == Array(0..<expected).map { Optional($0) }, "seed \(seed) section \(index)")
        }
        for (index, section) in spec.sections.enumerated() {
            let region = Self.itemsRegion(of: section, geometry: result.sections[index], axis: spec.axis, extent: extent)
            for cell in result.elements(ofSection: index) where cell.kind == .cell {
                let frame = spec.axis.localFrame(cell.frame)
                let inside = frame.cross >= region.cross - Self.tolerance && frame.crossEnd <= region.crossEnd + Self.tolerance
                    && frame.scroll >= region.scroll - Self.tolerance && frame.scrollEnd <= region.scrollEnd + Self.tolerance
                #expect(inside, "seed \(seed): \(cell) outside its items region \(spec.axis.screenRect(region))\n\(json)")
            }
        }
        // Along the scroll axis everything is inside the content; across it
        // only cells of a mozaik matrix wider than avail may pass the extent.
        let content = spec.axis.localFrame(Rect(x: 0, y: 0, width: result.contentSize.width, height: result.contentSize.height))
        for element in result.elements {
            let frame = spec.axis.localFrame(element.frame)
            var inside = frame.scroll >= -Self.tolerance && frame.scrollEnd <= content.scrollEnd + Self.tolerance
                && frame.crossLength >= 0 && frame.scrollLength >= 0
            if element.kind != .cell { inside = inside && frame.cross == 0 && frame.crossLength == extent }
            #expect(inside, "seed \(seed): \(element) outside \(result.contentSize)\n\(json)")
        }
    }

    /// Where a section's cells must lie: from the items origin, `avail`
    /// across (a mozaik matrix's own width when its columns are explicit)
    /// and the items extent along the scroll axis.
    static func itemsRegion(of section: Section, geometry: SectionGeometry, axis: Axis, extent: Double) -> LocalFrame {
        let insets = section.insets.along(axis)
        var across = extent - insets.crossStart - insets.crossEnd
        if let mozaik = section.layout as? MozaikLayout, case .widths(let widths) = mozaik.columns {
            across = widths.reduce(0, +) + Double(widths.count - 1) * mozaik.itemSpacing
        }
        return LocalFrame(cross: insets.crossStart, scroll: geometry.itemsScrollOrigin, crossLength: across, scrollLength: geometry.itemsExtent)
    }

    @Test("the generator makes mozaik matrices wider than avail, whose cells pass the extent (valid per the contract)")
    func mozaikMatricesWiderThanAvail() throws {
        var widerCells = 0
        for seed in Self.seeds {
            var generator = RandomSpecGenerator(seed: seed, kinds: ["mozaik"])
            let (json, extent) = generator.spec()
            let spec = try Spec(jsonText: json)
            let result = try LayoutEngine().layout(spec, crossExtent: extent)
            widerCells += result.elements.filter { spec.axis.localFrame($0.frame).crossEnd > extent }.count
        }
        #expect(widerCells > 0)
    }

    @Test("no two cells of a section overlap", arguments: seeds)
    func noOverlaps(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: Self.kinds)
        let (json, extent) = generator.spec()
        let spec = try Spec(jsonText: json)
        let result = try LayoutEngine().layout(spec, crossExtent: extent)
        for index in spec.sections.indices {
            let cells = result.elements(ofSection: index).filter { $0.kind == .cell }.map(\.frame)
            for first in cells.indices {
                for second in cells.indices where second > first {
                    let a = cells[first], b = cells[second]
                    let overlapX = min(a.maxX, b.maxX) - max(a.minX, b.minX)
                    let overlapY = min(a.maxY, b.maxY) - max(a.minY, b.minY)
                    #expect(!(overlapX > Self.tolerance && overlapY > Self.tolerance),
                            "seed \(seed) section \(index): items \(first) \(a) and \(second) \(b) overlap\n\(json)")
                }
            }
        }
    }

    @Test("rect queries equal a brute-force filter, edges included", arguments: seeds)
    func rectQueries(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: Self.kinds)
        let (json, extent) = generator.spec()
        let result = try LayoutEngine().layout(Spec(jsonText: json), crossExtent: extent)
        let all = result.elements
        var random = SeededRandom(seed: seed ^ 0xABCD)
        let size = result.contentSize
        for query in 0..<40 {
            let rect: Rect
            if query % 4 == 0, let element = all.randomElement(using: &random) {
                // Rects that share an edge with an element: touching is not intersecting.
                let frame = element.frame
                rect = [
                    Rect(x: frame.maxX, y: frame.minY, width: 10, height: frame.height),
                    Rect(x: frame.minX, y: frame.maxY, width: frame.width, height: 10),
                    Rect(x: frame.minX - 10, y: frame.minY, width: 10, height: frame.height),
                    frame,
                ][query / 4 % 4]
            } else {
                rect = Rect(
                    x: random.quarter(-50...(size.width + 50)),
                    y: random.quarter(-50...(size.height + 50)),
                    width: random.quarter(0...400),
                    height: random.quarter(0...900)
                )
            }
            let expected = all.filter { $0.frame.intersects(rect) }
            #expect(result.elements(in: rect) == expected, "seed \(seed) rect \(rect)\n\(json)")
        }
    }

    @Test("the same spec gives identical output, also after a JSON round trip", arguments: Array(seeds.prefix(100)))
    func deterministic(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: Self.kinds)
        let (json, extent) = generator.spec()
        let spec = try Spec(jsonText: json)
        let first = try LayoutEngine().layout(spec, crossExtent: extent).elements.map(\.jsonText)
        let second = try LayoutEngine().layout(Spec(jsonText: json), crossExtent: extent).elements.map(\.jsonText)
        let roundTrip = try Spec(json: spec.jsonValue)
        let third = try LayoutEngine().layout(roundTrip, crossExtent: extent).elements.map(\.jsonText)
        #expect(first == second, "seed \(seed)")
        #expect(first == third, "seed \(seed): the spec's JSON encoding lays out differently\n\(json)")
        #expect(roundTrip.canonicalText == spec.canonicalText, "seed \(seed)")
    }

    @Test("streaming in small chunks gives the same layout", arguments: Array(seeds.prefix(50)))
    func chunkedStreaming(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: Self.kinds)
        let (json, extent) = generator.spec()
        let spec = try Spec(jsonText: json)
        let whole = try LayoutEngine().layout(spec, crossExtent: extent).elements
        let chunked = try LayoutEngine(chunkSize: 3).layout(spec, crossExtent: extent).elements
        #expect(whole == chunked, "seed \(seed)")
    }
}
