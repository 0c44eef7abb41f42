import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraSQLite

/// The correctness bar of incremental updates: after any sequence of
/// changes, every frame, the content size and every query equal a full
/// recompute of the final spec.
@Suite("store: incremental updates equal a full recompute")
struct IncrementalUpdateTests {
    /// Checks the store's layouts of `name` against the engine's.
    static func expectMatchesFullRecompute(
        _ store: LayoutStore, name: String, extents: [Double], expected spec: Spec, seed: UInt64, step: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let stored = try #require(try await store.spec(named: name))
        #expect(stored.canonicalText == spec.canonicalText, "seed \(seed) \(step): stored spec differs", sourceLocation: sourceLocation)
        for extent in extents {
            let memory = try LayoutEngine().layout(spec, crossExtent: extent)
            let layout = try #require(try await store.layouts().first { $0.specName == name && $0.crossExtent == extent })
            #expect(layout.state == .fresh, sourceLocation: sourceLocation)
            #expect(layout.contentSize == memory.contentSize, "seed \(seed) \(step) @\(extent)", sourceLocation: sourceLocation)
            #expect(layout.elementCount == memory.elementCount, "seed \(seed) \(step) @\(extent)", sourceLocation: sourceLocation)
            let everything = Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)
            #expect(try await store.elements(name: name, crossExtent: extent, in: everything) == memory.elements,
                    "seed \(seed) \(step) @\(extent)", sourceLocation: sourceLocation)
            var random = SeededRandom(seed: seed &+ UInt64(extent))
            let size = memory.contentSize
            for _ in 0..<6 {
                let rect = Rect(x: random.quarter(-20...size.width), y: random.quarter(-20...max(size.height, 1)),
                                width: random.quarter(0...400), height: random.quarter(0...700))
                #expect(try await store.visibleElements(name: name, crossExtent: extent, viewport: rect) == memory.visibleElements(viewport: rect),
                        "seed \(seed) \(step) @\(extent) \(rect)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Items to append to a section: copies of its own items.
    static func itemsToAppend(_ source: ItemSource, count: Int, random: inout SeededRandom) -> [Item] {
        var pool: [Item] = []
        func collect(_ source: ItemSource) {
            switch source {
            case .list(let items): pool += items
            case .cycle(_, let cycle): pool += cycle
            case .segments(let parts): parts.forEach(collect)
            case .overridden(let base, let overrides): collect(base); pool += overrides.items
            case .file: break
            }
        }
        collect(source)
        if pool.isEmpty { pool = [Item(width: 30, height: 20)] }
        return (0..<count).map { _ in pool[random.int(0...(pool.count - 1))] }
    }

    @Test("random sequences of appends, edits, inserts, removals and spacing changes", arguments: TestBackend.all, Array(UInt64(1)...40))
    func randomSequences(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 5, maxItems: 120)
        var spec = try Spec(jsonText: json)
        let useIDs = seed % 2 == 0
        if useIDs { for index in spec.sections.indices { spec.sections[index].id = "s\(index)" } }
        // Replacement sections come from another random spec.
        var other = RandomSpecGenerator(seed: seed &* 31 &+ 7, kinds: allKinds)
        var pool = try Spec(jsonText: other.spec(maxSections: 6, maxItems: 120).json).sections
        var random = SeededRandom(seed: seed &* 977)
        let extents = [extent, extent + 97.5]
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: extents)
        var nextID = spec.sections.count
        for step in 0..<7 {
            let operation = random.int(0...6)
            var description = ""
            switch operation {
            case 0, 1:
                guard !spec.sections.isEmpty else { continue }
                let section = random.int(0...(spec.sections.count - 1))
                let items = Self.itemsToAppend(spec.sections[section].items, count: random.int(1...40), random: &random)
                spec.sections[section].items = spec.sections[section].items.appending(items)
                let report = try await store.append(name: "feed", section: section, items: items)
                description = "append \(items.count) to \(section): \(report.layouts)"
                // Every kind of ours resumes: an append lays out only the new items.
                #expect(report.layouts.allSatisfy { $0.resumed == 1 && $0.recomputed == 0 }, "seed \(seed): \(description)")
            case 2:
                guard !spec.sections.isEmpty, !pool.isEmpty else { continue }
                let section = random.int(0...(spec.sections.count - 1))
                var replacement = pool.removeLast()
                replacement.id = spec.sections[section].id
                spec.sections[section] = replacement
                try await store.update(name: "feed", with: spec)
                description = "edit \(section)"
            case 3:
                guard !pool.isEmpty else { continue }
                let position = random.int(0...spec.sections.count)
                var inserted = pool.removeLast()
                if useIDs { inserted.id = "s\(nextID)"; nextID += 1 }
                spec.sections.insert(inserted, at: position)
                try await store.update(name: "feed", with: spec)
                description = "insert at \(position)"
            case 4:
                guard spec.sections.count > 1 else { continue }
                let position = random.int(0...(spec.sections.count - 1))
                spec.sections.remove(at: position)
                try await store.update(name: "feed", with: spec)
                description = "remove \(position)"
            case 5:
                spec.sectionSpacing = random.quarter(0...30)
                try await store.update(name: "feed", with: spec)
                description = "sectionSpacing \(spec.sectionSpacing)"
            default:
                // Every frame changes: each stored width is laid out again in full.
                spec.axis = spec.axis == .vertical ? .horizontal : .vertical
                let report = try await store.update(name: "feed", with: spec)
                description = "axis \(spec.axis)"
                #expect(report.layouts.map(\.fullRecompute) == [true, true], "seed \(seed): \(description)")
            }
            try await Self.expectMatchesFullRecompute(store, name: "feed", extents: extents, expected: spec, seed: seed, step: "step \(step): \(description)")
        }
    }

    @Test("an append into an open flow line moves the frames already stored, exactly", arguments: TestBackend.all)
    func appendIntoOpenFlowLine(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "flow", "alignment": "justified"}, "items": [{"size": [100, 10]}, {"size": [100, 10]}]},
                                   {"layout": {"kind": "grid", "fraction": 2}, "header": {"size": 30, "pinned": true}, "items": {"count": 4, "cycle": [{}]}}]}
        """)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: [300])
        let report = try await store.append(name: "feed", section: 0, items: [Item(width: 100, height: 20)])
        #expect(report.layouts.map(\.resumed) == [1])
        #expect(report.layouts.map(\.shifted) == [1])
        #expect(report.layouts.map(\.recomputed) == [0])
        // The taller item joins the open line: the first two are centred again.
        #expect(try await store.element(name: "feed", crossExtent: 300, section: 0, item: 0)?.frame == Rect(x: 0, y: 5, width: 100, height: 10))
        var expected = spec
        expected.sections[0].items = expected.sections[0].items.appending([Item(width: 100, height: 20)])
        try await Self.expectMatchesFullRecompute(store, name: "feed", extents: [300], expected: expected, seed: 0, step: "flow")
        // One more closes the line: the old last line is justified now.
        try await store.append(name: "feed", section: 0, items: [Item(width: 50, height: 10)])
        expected.sections[0].items = expected.sections[0].items.appending([Item(width: 50, height: 10)])
        try await Self.expectMatchesFullRecompute(store, name: "feed", extents: [300], expected: expected, seed: 0, step: "flow line closed")
    }

    @Test("appends back-fill a dense mozaik's open rows and go on from a saved cursor", arguments: TestBackend.all)
    func appendIntoOpenMozaikRows(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "mozaik", "columnCount": 3, "rowHeight": 50},
          "items": [{"columns": 2, "rows": 2}, {"columns": 3}, {"columns": 2}]}]}
        """)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "wall", crossExtents: [300, 450])
        var expected = spec
        for batch in [[Item(columns: 1, rows: 1)], [Item(columns: 1, rows: 1), Item(columns: 1, rows: 2)], [Item(columns: 3, rows: 1)]] {
            let report = try await store.append(name: "wall", section: 0, items: batch)
            #expect(report.layouts.allSatisfy { $0.resumed == 1 && $0.recomputed == 0 })
            expected.sections[0].items = expected.sections[0].items.appending(batch)
            try await Self.expectMatchesFullRecompute(store, name: "wall", extents: [300, 450], expected: expected, seed: 0, step: "mozaik")
        }
        // The first small item went into the hole beside the 2×2 item, row 0.
        #expect(try await store.element(name: "wall", crossExtent: 300, section: 0, item: 3)?.frame == Rect(x: 200, y: 0, width: 100, height: 50))
    }

    @Test("an unchanged section after an edited one is moved, not recomputed", arguments: TestBackend.all)
    func shiftInsteadOfRecompute(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [
          {"id": "a", "layout": {"kind": "grid", "fraction": 2}, "items": {"count": 10, "cycle": [{}]}},
          {"id": "b", "layout": {"kind": "grid", "fraction": 2}, "items": {"count": 10, "cycle": [{}]}},
          {"id": "c", "layout": {"kind": "staggered", "columns": 2}, "items": {"count": 10, "cycle": [{"aspectRatio": 0.7}, {"aspectRatio": 1.3}]}}]}
        """)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: [200])
        var edited = spec
        edited.sections[1].items = .cycle(count: 13, [Item()])
        edited.sections[1].layout = GridLayout(fraction: 3)
        let report = try await store.update(name: "feed", with: edited)
        #expect(report.layouts.first == {
            var entry = UpdateReport.Layout(crossExtent: 200)
            entry.kept = 1
            entry.recomputed = 1
            entry.shifted = 1
            return entry
        }())
        try await Self.expectMatchesFullRecompute(store, name: "feed", extents: [200], expected: edited, seed: 0, step: "edit b")
        // Inserting before "c" renumbers it without touching its cells.
        var inserted = edited
        inserted.sections.insert(Section(id: "new", layout: FlowLayout(), items: .list([Item(width: 10, height: 10)])), at: 1)
        let second = try await store.update(name: "feed", with: inserted)
        #expect(second.layouts.first?.recomputed == 1)
        #expect(second.layouts.first?.shifted == 2)
        try await Self.expectMatchesFullRecompute(store, name: "feed", extents: [200], expected: inserted, seed: 0, step: "insert")
    }
}
