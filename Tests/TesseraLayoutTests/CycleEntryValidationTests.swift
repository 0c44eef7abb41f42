import Synchronization
import Testing
@testable import TesseraLayout

/// Cycle entries past `count` are never repeated by an item, but they are
/// part of the spec: the section's kind validates each of them once.
@Suite("cycle entries that no item repeats are validated too")
struct CycleEntryValidationTests {
    static let cases: [(layout: String, items: String, path: String, reason: String)] = [
        (#"{"kind": "scaledGrid", "divisions": 2}"#, #"{"count": 1, "cycle": [{}, {"scale": 0}]}"#,
         "sections[0].items.cycle[1].scale", "must be at least 1, got 0"),
        (#"{"kind": "mozaik", "columnCount": 3, "rowHeight": 10}"#, #"{"count": 0, "cycle": [{"columns": 9}]}"#,
         "sections[0].items.cycle[0].columns", "9 columns requested, the matrix has 3"),
        (#"{"kind": "staggered", "columns": 2}"#, #"{"count": 2, "cycle": [{}, {}, {"length": -1}]}"#,
         "sections[0].items.cycle[2].length", "must be a finite number of at least 0, got -1"),
        (#"{"kind": "grid"}"#, #"{"count": 1, "cycle": [{}, {"fraction": 2.5}]}"#,
         "sections[0].items.cycle[1].fraction", "must be an integer, got 2.5"),
        (#"{"kind": "flow"}"#, #"{"segments": [[{}], {"count": 1, "cycle": [{}, {"size": [1, -1]}]}]}"#,
         "sections[0].items.segments[1].cycle[1].size", "lengths must be finite and at least 0, got -1"),
    ]

    @Test("an invalid entry past count rejects the spec, named sections[s].items.cycle[j]", arguments: cases.indices)
    func rejected(index: Int) {
        let (layout, items, path, reason) = Self.cases[index]
        let json = #"{"format": 1, "sections": [{"layout": \#(layout), "items": \#(items)}]}"#
        #expect(specError(json) == SpecError(path: path, reason: reason), "\(json)")
    }

    @Test("fields the kind does not read are still not validated, and unreached entries add no cells")
    func unreadFields() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 1, "cycle": [{}, {"scale": 0, "columns": 0}]}}]}
        """, extent: 100)
        #expect(cellFrames(result) == [[0, 0, 50, 50]])
    }

    /// A kind that records every item path it is asked to place.
    struct RecordingLayout: SectionLayout {
        let placed: Recorded
        var kind: String { "recording" }
        var parameters: JSONObject { JSONObject() }

        final class Recorded: Sendable {
            let paths = Mutex<[String]>([])
        }

        func makePlacer(in context: SectionContext) throws -> any ItemPlacer { Placer(placed: placed) }

        struct Placer: ItemPlacer {
            let placed: Recorded
            mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
                placed.paths.withLock { $0.append(location.path.description) }
                sink.emit(item: index, frame: LocalFrame(cross: 0, scroll: Double(index), crossLength: 1, scrollLength: 1))
            }
            func finish(into sink: inout FrameSink) -> Double { 0 }
        }
    }

    @Test("each unreached entry is placed once on a probe; reached entries are not checked again", arguments: [(3, 5), (1000, 2)])
    func oncePerEntry(count: Int, entries: Int) throws {
        let recorded = RecordingLayout.Recorded()
        let spec = Spec(sections: [
            Section(layout: RecordingLayout(placed: recorded), items: .cycle(count: count, Array(repeating: Item(), count: entries))),
        ])
        _ = try LayoutEngine().layout(spec, crossExtent: 100)
        let paths = recorded.paths.withLock { $0 }
        let reached = (0..<count).map { "sections[0].items.cycle[\($0 % entries)]" }
        let unreached = (min(count, entries)..<entries).map { "sections[0].items.cycle[\($0)]" }
        #expect(paths == unreached + reached)
    }
}
