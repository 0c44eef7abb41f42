import Testing
import TesseraLayout

/// The engine checks what a kind writes: each item it was given exactly once
/// and nothing else. Counting frames is not enough: a kind that writes one
/// item twice and skips another writes the right number of frames.
@Suite("the engine rejects a kind that places an item twice, skips one, or invents one")
struct PlacementCheckTests {
    /// A kind that writes, for item i, the frames of the items `written(i)`
    /// (a 10-point square per item, stacked), and holds back items whose
    /// frames it writes late until `finish`.
    struct MisplacingLayout: SectionLayout {
        let written: @Sendable (Int) -> [Int]
        var heldBack: Set<Int> = []

        var kind: String { "misplacing" }
        var parameters: JSONObject { JSONObject() }

        func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
            Placer(written: written, heldBack: heldBack)
        }

        struct Placer: ItemPlacer {
            let written: @Sendable (Int) -> [Int]
            let heldBack: Set<Int>
            var late: [Int] = []
            var count = 0

            mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
                count = index + 1
                for target in written(index) {
                    if heldBack.contains(target) { late.append(target) } else { sink.emit(item: target, frame: Self.frame(target)) }
                }
            }

            func finish(into sink: inout FrameSink) -> Double {
                for target in late.reversed() { sink.emit(item: target, frame: Self.frame(target)) }
                return Double(count) * 10
            }

            static func frame(_ item: Int) -> LocalFrame {
                LocalFrame(cross: 0, scroll: Double(item) * 10, crossLength: 10, scrollLength: 10)
            }
        }
    }

    func layOut(_ layout: MisplacingLayout, items: Int, chunkSize: Int = 4096) throws -> LayoutResult {
        let spec = Spec(sections: [
            Section(layout: FlowLayout(), items: .list([Item()])),
            Section(layout: layout, items: .cycle(count: items, [Item()])),
        ])
        return try LayoutEngine(chunkSize: chunkSize).layout(spec, crossExtent: 100)
    }

    @Test("item 0 written twice and item 1 never: as many frames as items, still an error")
    func duplicateAndSkip() {
        let layout = MisplacingLayout(written: { $0 == 1 ? [0] : [$0] })
        #expect(throws: SpecError(path: "sections[1].layout", reason: "the misplacing layout wrote item 0 twice")) {
            try layOut(layout, items: 3)
        }
    }

    @Test("a duplicate is found across chunks and among items written out of order", arguments: [1, 2, 4096])
    func duplicateOutOfOrder(chunkSize: Int) {
        // Items 2 and 3 are written ahead of 1; then 3 again.
        let layout = MisplacingLayout(written: { [[0], [2, 3], [1], [3]][$0] })
        #expect(throws: SpecError(path: "sections[1].layout", reason: "the misplacing layout wrote item 3 twice")) {
            try layOut(layout, items: 4, chunkSize: chunkSize)
        }
    }

    @Test("a frame with a negative length is an error, not a trap")
    func negativeLength() {
        struct Shrinking: SectionLayout {
            var kind: String { "shrinking" }
            var parameters: JSONObject { JSONObject() }
            func makePlacer(in context: SectionContext) throws -> any ItemPlacer { Placer() }
            struct Placer: ItemPlacer {
                mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
                    sink.emit(item: index, frame: LocalFrame(cross: 0, scroll: 0, crossLength: 10, scrollLength: -5))
                }
                func finish(into sink: inout FrameSink) -> Double { 0 }
            }
        }
        let spec = Spec(sections: [Section(layout: Shrinking(), items: .list([Item()]))])
        #expect(throws: SpecError(
            path: "sections[0].items[0]", reason: "the shrinking layout produced a frame that is not finite or has a negative length"
        )) {
            try LayoutEngine().layout(spec, crossExtent: 100)
        }
    }

    @Test("an item without a frame is named")
    func skipped() {
        let layout = MisplacingLayout(written: { $0 == 2 ? [] : [$0] })
        #expect(throws: SpecError(path: "sections[1].layout", reason: "the misplacing layout wrote no frame for item 2 (of 4 items)")) {
            try layOut(layout, items: 4)
        }
    }

    @Test("a frame for an item the kind was not given is an error, past the end or negative", arguments: [[0, 3], [-1, 0]])
    func invented(extra: [Int]) {
        let layout = MisplacingLayout(written: { $0 == 0 ? extra : [$0] })
        // A negative item is refused at once; one past the end when the section is complete.
        let reason = extra.contains(-1)
            ? "the misplacing layout wrote a frame for item -1, which it was not given"
            : "the misplacing layout wrote a frame for item 3, which it was not given (the section has 3 items)"
        #expect(throws: SpecError(path: "sections[1].layout", reason: reason)) {
            try layOut(layout, items: 3)
        }
    }

    @Test("every item once, in any order, is fine: the result is in item order", arguments: [1, 3, 4096])
    func anyOrder(chunkSize: Int) throws {
        // Items 1, 2 and 4 are held back and written in reverse at the end.
        let layout = MisplacingLayout(written: { [$0] }, heldBack: [1, 2, 4])
        let result = try layOut(layout, items: 6, chunkSize: chunkSize)
        let cells = result.elements(ofSection: 1)
        #expect(cells.map(\.item) == [0, 1, 2, 3, 4, 5])
        #expect(cells.map(\.frame.y) == [50, 60, 70, 80, 90, 100])
    }
}
