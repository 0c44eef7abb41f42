import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// Breakpoints and right to left through a store: each stored extent is
/// laid out with its own parameters, a breakpoint change lays out again
/// only the extents whose parameters it changes, and right-to-left answers
/// equal the engine's.
@Suite("store: breakpoints and right to left")
struct BreakpointStoreTests {
    /// A flow section, a staggered section with breakpoints, a grid section.
    static func spec(_ breakpoints: String) throws -> Spec {
        try Spec(jsonText: """
        {"format": 1, "sectionSpacing": 10, "sections": [
          {"id": "top", "layout": {"kind": "flow", "itemSpacing": 4}, "items": {"count": 7, "cycle": [{"size": [90, 40]}, {"size": [60, 30]}]}},
          {"id": "photos", "header": {"size": 30, "pinned": true}, "layout": {"kind": "staggered", "columns": 2, "lineSpacing": 4,
             "breakpoints": \(breakpoints)},
           "items": {"count": 40, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"length": 120}]}},
          {"id": "more", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 9, "cycle": [{}]}}]}
        """)
    }

    static let before = #"[{"minExtent": 600, "columns": 3}, {"minExtent": 1024, "columns": 5, "itemSpacing": 8}]"#
    static let extents: [Double] = [400, 700, 1100]
    static let everything = Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)

    /// Every stored extent is fresh and equals the engine's layout of `spec`.
    static func expectFullRecompute(_ store: LayoutStore, _ spec: Spec, step: String) async throws {
        let layouts = try await store.layouts(name: "feed")
        #expect(layouts.map(\.crossExtent) == extents, "\(step)")
        for layout in layouts {
            let memory = try LayoutEngine().layout(spec, crossExtent: layout.crossExtent)
            #expect(layout.state == .fresh, "\(step) @\(layout.crossExtent)")
            #expect(layout.contentSize == memory.contentSize, "\(step) @\(layout.crossExtent)")
            #expect(try await store.elements(name: "feed", crossExtent: layout.crossExtent, in: everything) == memory.elements,
                    "\(step) @\(layout.crossExtent)")
        }
    }

    /// Sections laid out again or gone on with (resumed), by extent: 0 where every section was kept or shifted.
    static func recomputed(_ report: UpdateReport) -> [Double: Int] {
        Dictionary(uniqueKeysWithValues: report.layouts.map { ($0.crossExtent, $0.recomputed + $0.resumed) })
    }

    @Test("each extent gets its own parameters; a breakpoint change lays out again only the extents it reaches",
          arguments: TestBackend.all)
    func changeOneBreakpoint(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let original = try Self.spec(Self.before)
        try await store.save(original, as: "feed", crossExtents: Self.extents)
        try await Self.expectFullRecompute(store, original, step: "saved")

        // From 1024 on: 4 columns instead of 5. Only 1100 changes.
        let fewer = try Self.spec(#"[{"minExtent": 600, "columns": 3}, {"minExtent": 1024, "columns": 4, "itemSpacing": 8}]"#)
        let first = try await store.update(name: "feed", with: fewer)
        #expect(Self.recomputed(first) == [400: 0, 700: 0, 1100: 1])
        #expect(first.layouts.allSatisfy { !$0.fullRecompute })
        #expect(first.layouts.first { $0.crossExtent == 400 }?.kept == 3)
        try await Self.expectFullRecompute(store, fewer, step: "columns from 1024")

        // The first breakpoint moves from 600 to 800: 700 goes back to 2 columns; 400 and 1100 stay.
        let moved = try Self.spec(#"[{"minExtent": 800, "columns": 3}, {"minExtent": 1024, "columns": 4, "itemSpacing": 8}]"#)
        let second = try await store.update(name: "feed", with: moved)
        #expect(Self.recomputed(second) == [400: 0, 700: 1, 1100: 0])
        try await Self.expectFullRecompute(store, moved, step: "minExtent 800")

        // A breakpoint that changes nothing at any stored extent (from 2000) keeps every layout.
        let unreached = try Self.spec(#"[{"minExtent": 800, "columns": 3}, {"minExtent": 1024, "columns": 4, "itemSpacing": 8}, {"minExtent": 2000, "columns": 9}]"#)
        let third = try await store.update(name: "feed", with: unreached)
        #expect(Self.recomputed(third) == [400: 0, 700: 0, 1100: 0])
        try await Self.expectFullRecompute(store, unreached, step: "breakpoint from 2000")

        // The stored spec reads back with its breakpoints.
        let stored = try #require(try await store.spec(named: "feed"))
        #expect(stored.canonicalText == unreached.canonicalText)
    }

    @Test("right-to-left answers from a store equal the engine's, rect, viewport and item, both axes",
          arguments: TestBackend.all, Array(UInt64(1)...6))
    func rightToLeft(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(sections: 1...4, items: 1...50, axis: seed % 2 == 0 ? .vertical : .horizontal)
        let spec = try Spec(jsonText: json)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: [extent])
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        var random = SeededRandom(seed: seed ^ 0xF00D)
        let size = memory.contentSize
        for _ in 0..<12 {
            let rect = Rect(x: random.quarter(-20...size.width), y: random.quarter(-20...max(size.height, 1)),
                            width: random.quarter(0...400), height: random.quarter(0...700))
            #expect(try await store.elements(name: "feed", crossExtent: extent, in: rect, direction: .rightToLeft)
                == memory.elements(in: rect, direction: .rightToLeft), "seed \(seed) \(rect)")
            #expect(try await store.visibleElements(name: "feed", crossExtent: extent, viewport: rect, direction: .rightToLeft)
                == memory.visibleElements(viewport: rect, direction: .rightToLeft), "seed \(seed) \(rect)")
            let answer = try await store.answer(.viewport(rect), name: "feed", crossExtent: extent, direction: .rightToLeft)
            #expect(answer.elements == memory.visibleElements(viewport: rect, direction: .rightToLeft), "seed \(seed) \(rect)")
        }
        for cell in memory.elements(direction: .rightToLeft) where cell.kind == .cell {
            let item = try #require(cell.item)
            #expect(try await store.element(name: "feed", crossExtent: extent, section: cell.section, item: item, direction: .rightToLeft) == cell)
        }
    }
}
