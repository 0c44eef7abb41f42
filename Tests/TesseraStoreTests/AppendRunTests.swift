import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraStoreFormat

/// Appends write what is new: each one stores its items as a run of its
/// own beside the section, whose body stays as it was, and the section's
/// hash goes on from the last run. What is stored still reads back, hashes
/// and lays out exactly as the spec saved whole.
@Suite("store: appends write only their own items")
struct AppendRunTests {
    static let feed = #"""
        {"format": 1, "sections": [
          {"id": "photos", "layout": {"kind": "staggered", "columns": 3, "itemSpacing": 2}, "header": {"size": 40, "pinned": true},
           "items": {"count": 1000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}},
          {"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 500, "cycle": [{}, {"fraction": 2, "aspectRatio": 1.5}]}}
        ]}
        """#

    /// The stored body of a section and the runs appended to it, as the backend holds them.
    static func storedRows(_ store: LayoutStore, name: String, section: Int) async throws -> (body: String?, runs: [ItemRun]) {
        try await store.readAsync { rows -> (body: String?, runs: [ItemRun]) in
            guard let id = try rows.spec(name: name)?.id else { return (nil, []) }
            return (try rows.sections(specID: id, index: section).first?.body, try rows.itemRuns(specID: id, section: section))
        }
    }

    @Test("100 appends of 1,000 items to a count/cycle section: the stored spec, its hash and every layout equal the spec saved whole", arguments: TestBackend.all)
    func hundredAppends(backend: TestBackend) async throws {
        var expected = try Spec(jsonText: Self.feed)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let extents = [390.0, 820]
        try await store.save(expected, as: "feed", crossExtents: extents)
        let body = try await Self.storedRows(store, name: "feed", section: 0).body
        for round in 0..<100 {
            let items = (0..<1000).map { Item(aspectRatio: [0.75, 1.5, 1, 0.5][($0 + round) % 4]) }
            let report = try await store.append(name: "feed", section: 0, items: items)
            #expect(report.layouts.map(\.resumed) == [1, 1] && report.layouts.map(\.shifted) == [1, 1], "append \(round): \(report.layouts)")
            expected.sections[0].items = expected.sections[0].items.appending(items)
        }
        // The body was never written again: the items are in 100 runs.
        let (after, runs) = try await Self.storedRows(store, name: "feed", section: 0)
        #expect(after == body)
        #expect(runs.map(\.firstItem) == Array(stride(from: 1000, to: 101_000, by: 1000)))
        try await IncrementalUpdateTests.expectMatchesFullRecompute(
            store, name: "feed", extents: extents, expected: expected, seed: 0, step: "after 100 appends")

        // The hash is the one of the spec saved whole, so saving it changes nothing.
        let whole = try SpecFingerprint(spec: expected)
        #expect(try await store.specs().map(\.contentHash) == [whole.specHash])
        let saved = try await store.save(expected, as: "feed", crossExtents: extents)
        #expect(saved.report.layouts.map(\.kept) == [2, 2] && saved.report.layouts.allSatisfy { $0.recomputed == 0 })
        #expect(try await Self.storedRows(store, name: "feed", section: 0).runs.count == 100)
        #expect(try await store.check().isHealthy)

        // Another handle reads the same; a resize folds the runs into the section's body.
        let other = try await temporary.reopen()
        #expect(try await other.spec(named: "feed")?.canonicalText == expected.canonicalText)
        try await other.resize(name: "feed", section: 0, changes: [ItemChange(item: 50_500, fields: [.aspectRatio: .number(2)])])
        expected.sections[0].items = try #require(try await other.spec(named: "feed")).sections[0].items
        #expect(try await Self.storedRows(other, name: "feed", section: 0).runs.isEmpty)
        try await store.append(name: "feed", section: 0, items: [Item(aspectRatio: 3)])
        expected.sections[0].items = expected.sections[0].items.appending([Item(aspectRatio: 3)])
        try await IncrementalUpdateTests.expectMatchesFullRecompute(
            store, name: "feed", extents: extents, expected: expected, seed: 0, step: "after a resize and an append")
    }

    @Test("random appends to lists, cycles, segments and resized sections: every query equals the engine's", arguments: TestBackend.all, Array(UInt64(1)...12))
    func randomAppends(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 7919, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 3, maxItems: 80)
        var spec = try Spec(jsonText: json)
        var random = SeededRandom(seed: seed)
        let extents = [extent, extent + 61.25]
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: extents)
        for step in 0..<10 {
            let section = random.int(0...(spec.sections.count - 1))
            var description = ""
            if random.chance(0.15), let count = spec.sections[section].items.knownCount, count > 0 {
                let item = random.int(0...(count - 1))
                try await store.resize(name: "feed", section: section, changes: [ItemChange(item: item, fields: [.aspectRatio: .number(random.quarter(0.5...2))])])
                spec.sections[section].items = try #require(try await store.spec(named: "feed")).sections[section].items
                description = "resize item \(item) of \(section)"
            } else if random.chance(0.1) {
                // A save of the same spec: nothing to write.
                let saved = try await store.save(spec, as: "feed", crossExtents: extents)
                #expect(saved.report.layouts.allSatisfy { $0.recomputed == 0 && $0.resumed == 0 }, "seed \(seed) step \(step)")
                description = "save unchanged"
            } else {
                let items = IncrementalUpdateTests.itemsToAppend(spec.sections[section].items, count: random.int(0...30), random: &random)
                let report = try await store.append(name: "feed", section: section, items: items)
                // Nothing appended to a list leaves it as it was.
                #expect(report.layouts.allSatisfy { $0.recomputed == 0 && ($0.resumed == 1 || items.isEmpty) }, "seed \(seed) step \(step): \(report.layouts)")
                spec.sections[section].items = spec.sections[section].items.appending(items)
                description = "append \(items.count) to \(section)"
            }
            #expect(try await store.specs().map(\.contentHash) == [try SpecFingerprint(spec: spec).specHash], "seed \(seed) step \(step): \(description)")
            try await IncrementalUpdateTests.expectMatchesFullRecompute(
                store, name: "feed", extents: extents, expected: spec, seed: seed, step: "step \(step): \(description)")
        }
        #expect(try await temporary.reopen().spec(named: "feed")?.canonicalText == spec.canonicalText)
    }

    @Test("an item the section's kind refuses is named by its place in the section, and the failed append leaves nothing behind", arguments: TestBackend.all)
    func refusedItem(backend: TestBackend) async throws {
        var spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "mozaik", "columnCount": 3, "rowHeight": 20}, "items": {"count": 10, "cycle": [{"columns": 2}, {}]}}]}"#)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "wall", crossExtents: [300, 500])
        let first = (0..<5).map { _ in Item(columns: 1, rows: 2) }
        try await store.append(name: "wall", section: 0, items: first)
        spec.sections[0].items = spec.sections[0].items.appending(first)
        let layouts = try await store.layouts()

        // Item 17 of the section: the third of this append, the eighth of the list after the cycle.
        let error = try await #require(throws: StoreError.self) {
            try await store.append(name: "wall", section: 0, items: [Item(), Item(columns: 3), Item(columns: 4)])
        }
        #expect(error.code == .invalidSpec)
        #expect(error.message.contains("sections[0].items.segments[1][7].columns: 4 columns requested, the matrix has 3"), "\(error.message)")
        #expect(try await Self.storedRows(store, name: "wall", section: 0).runs.map(\.itemCount) == [5])
        #expect(try await store.layouts() == layouts)
        try await IncrementalUpdateTests.expectMatchesFullRecompute(
            store, name: "wall", extents: [300, 500], expected: spec, seed: 0, step: "after a refused append")
        let last = [Item(columns: 3)]
        try await store.append(name: "wall", section: 0, items: last)
        spec.sections[0].items = spec.sections[0].items.appending(last)
        try await IncrementalUpdateTests.expectMatchesFullRecompute(
            store, name: "wall", extents: [300, 500], expected: spec, seed: 0, step: "after the next append")
    }

    @Test("a save that writes a section anew drops that section's runs alone; one that changes the section count drops them all", arguments: TestBackend.all)
    func saveDropsRewrittenRuns(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var spec = try Spec(jsonText: Self.feed)
        try await store.save(spec, as: "feed", crossExtents: [390])
        for section in 0..<2 {
            let items = [Item(aspectRatio: 2), Item(aspectRatio: 0.5)]
            try await store.append(name: "feed", section: section, items: items)
            spec.sections[section].items = spec.sections[section].items.appending(items)
        }
        // Section 1 changed, section 0 as stored (its body and its run).
        spec.sections[1].items = .list([Item(), Item(aspectRatio: 3)])
        try await store.save(spec, as: "feed", crossExtents: [390])
        #expect(try await Self.storedRows(store, name: "feed", section: 0).runs.map(\.itemCount) == [2])
        #expect(try await Self.storedRows(store, name: "feed", section: 1).runs.isEmpty)
        #expect(try await temporary.reopen().spec(named: "feed")?.canonicalText == spec.canonicalText)

        spec.sections.append(spec.sections[1])
        try await store.save(spec, as: "feed", crossExtents: [390])
        for section in 0..<3 { #expect(try await Self.storedRows(store, name: "feed", section: section).runs.isEmpty, "section \(section)") }
        #expect(try await temporary.reopen().spec(named: "feed")?.canonicalText == spec.canonicalText)
        try await IncrementalUpdateTests.expectMatchesFullRecompute(store, name: "feed", extents: [390], expected: spec, seed: 0, step: "re-saved")
    }

    @Test("a section's hash goes on from any run as it would be computed whole", arguments: Array(UInt64(1)...40))
    func appendableHash(seed: UInt64) throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        var spec = try Spec(jsonText: generator.spec(maxSections: 2, maxItems: 30).json)
        var random = SeededRandom(seed: seed &+ 5)
        var section = spec.sections[0]
        if random.chance(0.5) { section.id = "s" }
        if random.chance(0.3) { section.items = .segments([section.items, .cycle(count: 3, [Item(aspectRatio: 2)])]) }
        if random.chance(0.3) { section.items = .list([]) }
        var hash = try #require(AppendableHash(section: section, axis: spec.axis))
        for _ in 0..<6 {
            let items = IncrementalUpdateTests.itemsToAppend(section.items, count: random.int(0...5), random: &random)
            _ = hash.append(items)
            section.items = section.items.appending(items)
            #expect(hash.hash == (try SpecFingerprint.hash(section, index: 0, axis: spec.axis)), "seed \(seed): \(section.jsonValue)")
            // As stored, and as computed from the whole section.
            hash = try #require(AppendableHash(bytes: hash.bytes))
            #expect(hash.hash == (try #require(AppendableHash(section: section, axis: spec.axis))).hash)
        }
        spec.sections[0] = section
        #expect(AppendableHash(bytes: [2] + hash.bytes.dropFirst()) == nil, "another version of the state is not read")
        let file = Section(layout: GridLayout(), items: .segments([.file(path: "a.ndjson", resolvedPath: "/a.ndjson"), .list([])]))
        #expect(AppendableHash(section: file, axis: .vertical) == nil, "a section that reads a file has no appendable hash")
    }
}
