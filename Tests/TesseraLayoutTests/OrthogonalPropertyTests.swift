import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// Random specs with carousels, checked against a second reading of the
/// contract (``ContractReading``): each carousel placed as the one section
/// of a spec of the other axis, and every rect, viewport and item query,
/// with random offsets in both directions, against a brute-force filter of
/// the whole layout.
@Suite("orthogonal sections: random specs against the contract")
struct OrthogonalPropertyTests {
    static let seeds: [UInt64] = Array(1...150)

    /// Carousel frames are the other spec's moved by start + header, which
    /// the engine adds in another order: equal up to rounding.
    static func close(_ a: Rect, _ b: Rect) -> Bool {
        let values = [(a.x, b.x), (a.y, b.y), (a.width, b.width), (a.height, b.height)]
        return values.allSatisfy { abs($0 - $1) <= 1e-9 * max(1, abs($0), abs($1)) }
    }

    static func randomSpec(seed: UInt64) throws -> (json: String, spec: Spec, result: LayoutResult) {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        generator.carouselChance = 0.5
        let (json, extent) = generator.spec(sections: 1...5, items: 1...40, axis: seed % 2 == 0 ? .vertical : .horizontal)
        let spec = try Spec(jsonText: json)
        return (json, spec, try LayoutEngine().layout(spec, crossExtent: extent))
    }

    @Test("each carousel is placed as the one section of a spec of the other axis at cross extent L", arguments: seeds)
    func placement(seed: UInt64) throws {
        let (json, spec, result) = try Self.randomSpec(seed: seed)
        for (index, section) in spec.sections.enumerated() {
            let geometry = result.sections[index]
            guard let orthogonal = section.orthogonal else {
                #expect(geometry.orthogonalContentLength == nil)
                continue
            }
            let (expected, contentLength) = try ContractReading.carousel(spec, section: index, start: geometry.start)
            let cells = result.elements(ofSection: index).filter { $0.kind == .cell }
            #expect(cells.count == expected.count, "seed \(seed) section \(index)\n\(json)")
            for (cell, want) in zip(cells, expected) {
                #expect(cell.item == want.item && Self.close(cell.frame, want.frame), "seed \(seed) section \(index): \(cell) vs \(want)\n\(json)")
            }
            let w = try #require(geometry.orthogonalContentLength)
            #expect(abs(w - contentLength) <= 1e-9 * max(1, contentLength), "seed \(seed) section \(index): W \(w) vs \(contentLength)")
            guard !geometry.isEmpty else { continue }
            // Along the feed: header, L, footer.
            let length = (section.header?.size ?? 0) + orthogonal.length + (section.footer?.size ?? 0)
            #expect(abs(geometry.end - geometry.start - length) <= 1e-9 * max(1, geometry.end), "seed \(seed) section \(index)")
            for element in result.elements(ofSection: index) where element.kind != .cell {
                let frame = spec.axis.localFrame(element.frame)
                #expect(frame.cross == 0 && frame.crossLength == result.crossExtent, "seed \(seed): \(element) keeps the full cross extent")
            }
        }
    }

    @Test("rect, viewport and item queries with offsets, both directions, equal a brute-force filter", arguments: seeds)
    func queries(seed: UInt64) throws {
        let (json, spec, result) = try Self.randomSpec(seed: seed)
        let all = result.elements
        let size = result.contentSize
        var random = SeededRandom(seed: seed ^ 0x0FF5E7)
        for round in 0..<25 {
            let (given, rect) = random.carouselQuery(sectionCount: spec.sections.count, size: size, offsets: -200...600)
            let offsets = OrthogonalOffsets(given)
            let direction: LayoutDirection = round % 2 == 0 ? .leftToRight : .rightToLeft
            let expected = ContractReading.answer(all, spec: spec, rect: rect, offsets: given, direction: direction, contentSize: size)
            let answer = result.elements(in: rect, direction: direction, offsets: offsets)
            #expect(answer == expected, "seed \(seed) rect \(rect) offsets \(given) \(direction)\n\(json)")
            let pinned = ContractReading.answer(all, spec: spec, rect: rect, pinning: true, offsets: given, direction: direction, contentSize: size)
            let visible = result.visibleElements(viewport: rect, direction: direction, offsets: offsets)
            #expect(ContractReading.sameElements(visible, pinned), "seed \(seed) viewport \(rect) offsets \(given)\n\(json)")
            let sections = Set(answer.map(\.section)).sorted()
            let orthogonal = sections.compactMap { s in result.sections[s].orthogonalContentLength.map { OrthogonalContent(section: s, contentLength: $0) } }
            #expect(result.orthogonalContent(of: answer) == orthogonal)
            for element in all where element.kind == .cell && random.chance(0.1) {
                let item = try #require(element.item)
                let cell = ContractReading.cell(all, spec: spec, section: element.section, item: item, offsets: given, direction: direction, contentSize: size)
                #expect(result.element(section: element.section, item: item, direction: direction, offsets: offsets) == cell, "seed \(seed)")
            }
        }
    }
}
