import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraSQLite

/// Warm frames across revisions: a layout's new directory takes over the
/// verified frames of the groups it shares (same id and checksum) with the
/// directory cached before it (`StoreCache.insert`), whatever path loaded
/// it and whatever the backend, and the frame budget's count stays exact.
@Suite("store: frames carried to a new revision")
struct FrameCarryTests {
    private static let everything = Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)

    private static func frames(start: Double) throws -> CachedFrames { try FrameCacheTests.frames(start: start) }

    /// The directories `store` caches, oldest revision first.
    private static func directories(_ store: LayoutStore) -> [(key: LayoutCacheKey, value: CachedLayout)] {
        store.cache.directories().map { ($0.key, $0.directory) }.sorted { ($0.key.layoutID, $0.key.revision) < ($1.key.layoutID, $1.key.revision) }
    }

    /// The groups of `directory` whose slots hold frames: each group's id and frames checksum.
    private static func filledGroups(_ directory: CachedLayout) -> Set<[Int64]> {
        var keys = Set<[Int64]>()
        for ordinal in directory.ids.indices where directory.isFilled(ordinal) {
            keys.insert([directory.ids[ordinal], directory.checksums[ordinal]])
        }
        return keys
    }

    /// The groups of `directory` not among `keys`.
    private static func groups(of directory: CachedLayout, notIn keys: Set<[Int64]>) -> Int {
        zip(directory.ids, directory.checksums).filter { !keys.contains([$0, $1]) }.count
    }

    /// The cache's count of frames equals what the cached directories'
    /// slots hold (none was dropped), within the budget.
    private static func expectExactCount(_ store: LayoutStore, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let statistics = store.cacheStatistics
        let held = directories(store).reduce(0) { $0 + $1.value.framesBytes }
        #expect(statistics.frameBytes == held && statistics.bytes <= statistics.budget, "\(comment): \(statistics), slots hold \(held)", sourceLocation: sourceLocation)
    }

    /// Asks for every element until a query is answered from the cached
    /// directory of a revision after `revision` (a directory loaded in the
    /// background answers the queries after the one that missed it): that
    /// query's frame hits and misses, and its answer.
    private static func queryNewRevision(
        _ store: LayoutStore, name: String, extent: Double, after revision: Int64
    ) async throws -> (hits: Int, misses: Int, elements: [LayoutElement]) {
        for _ in 0..<1000 {
            let before = store.cacheStatistics
            let elements = try await store.elements(name: name, crossExtent: extent, in: everything)
            let after = store.cacheStatistics
            // A layout without cells has no groups to count.
            if let newest = directories(store).last, newest.key.revision > revision,
               after.frameHits + after.frameMisses > before.frameHits + before.frameMisses || newest.value.ids.count == 0 {
                return (after.frameHits - before.frameHits, after.frameMisses - before.frameMisses, elements)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw StoreError(.internal, "no query of \(name.quotedForMessage) was answered from a cached directory after revision \(revision)")
    }

    private static func feed(_ count: Int) throws -> Spec {
        try Spec(jsonText: """
        {"format": 1, "sections": [
          {"layout": {"kind": "flow"}, "items": {"count": 400, "cycle": [{"size": [390, 60]}, {"size": [190, 90]}]}},
          {"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
           "header": {"size": 44, "pinned": true}, "items": {"count": \(count), "cycle": [{"aspectRatio": 1.0}, {"aspectRatio": 0.75}, {}]}}]}
        """)
    }

    /// A feed warmed whole, then appended to its last section: the query
    /// after reads only the groups the append changed, on every backend
    /// and load path (summary: few groups; background: many), and answers
    /// as the engine does.
    @Test("an append to a warm feed reads only the groups it changed", arguments: TestBackend.all, [2_100, 40_100])
    func appendKeepsWarmFrames(backend: TestBackend, count: Int) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var spec = try Self.feed(count)
        try await store.save(spec, as: "feed", crossExtents: [390])
        let first = try await Self.queryNewRevision(store, name: "feed", extent: 390, after: -1)
        #expect(first.elements == (try LayoutEngine().layout(spec, crossExtent: 390)).elements)
        for step in 0..<3 {
            let old = try #require(Self.directories(store).last)
            let warm = Self.filledGroups(old.value)
            #expect(warm.count == old.value.ids.count, "step \(step): warmed whole")
            let items = (0..<(30 + 100 * step)).map { Item(width: 40, height: 30 + Double($0 % 3) * 10) }
            spec.sections[1].items = spec.sections[1].items.appending(items)
            try await store.append(name: "feed", section: 1, items: items)
            let read = try await Self.queryNewRevision(store, name: "feed", extent: 390, after: old.key.revision)
            let new = try #require(Self.directories(store).last)
            let changed = Self.groups(of: new.value, notIn: warm)
            // The last group took the new items, or new groups follow it; no other changed.
            #expect((1...2).contains(changed), "step \(step): \(changed) groups changed")
            // Hits count visits: a query may visit a group more than once, never none.
            #expect(read.misses == changed && read.hits >= new.value.ids.count - changed, "step \(step): \(read.hits) hits, \(read.misses) misses")
            #expect(read.elements == (try LayoutEngine().layout(spec, crossExtent: 390)).elements, "step \(step)")
            #expect(Self.filledGroups(new.value).count == new.value.ids.count && Self.filledGroups(old.value).count == old.value.ids.count - new.value.ids.count + changed)
            Self.expectExactCount(store, "step \(step)")
        }
    }

    /// An update that changes some groups' frames (a shorter first
    /// section: its last group, whatever id the rewrite gives it): those
    /// are read again, the unchanged groups of both sections are not.
    @Test("an update carries the groups it left unchanged, not the others", arguments: TestBackend.all)
    func updateCarriesUnchanged(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var spec = try Self.feed(2_100)
        try await store.save(spec, as: "feed", crossExtents: [390])
        _ = try await Self.queryNewRevision(store, name: "feed", extent: 390, after: -1)
        let old = try #require(Self.directories(store).last)
        let warm = Self.filledGroups(old.value)
        guard case .cycle(_, let cycle) = spec.sections[0].items else { throw StoreError(.internal, "the feed's first section is not a cycle") }
        spec.sections[0].items = .cycle(count: 380, cycle)
        try await store.update(name: "feed", with: spec)
        let read = try await Self.queryNewRevision(store, name: "feed", extent: 390, after: old.key.revision)
        let new = try #require(Self.directories(store).last)
        let changed = Self.groups(of: new.value, notIn: warm)
        #expect(changed >= 1 && changed < new.value.ids.count, "\(changed) of \(new.value.ids.count) groups changed")
        #expect(read.misses == changed && read.hits >= new.value.ids.count - changed, "\(read.hits) hits, \(read.misses) misses")
        #expect(read.elements == (try LayoutEngine().layout(spec, crossExtent: 390)).elements)
        Self.expectExactCount(store, "update")
    }

    /// Random layouts and random appends to random sections, on every
    /// backend and under a frame budget of a few groups (sweeps between
    /// carries): every answer after each append equals a fresh store's,
    /// the engine's and brute force; the count stays exact and in budget.
    @Test("answers after random appends equal a fresh store's, the engine's and brute force", arguments: TestBackend.all, UInt64(1)...4)
    func randomAppends(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 7919, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 4, maxItems: 3000)
        var spec = try Spec(jsonText: json)
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "random", crossExtents: [extent])
        // Odd seeds: a budget of a few groups' frames.
        let budgets = seed % 2 == 1 ? (20_000, 40_000) : (LayoutStore.defaultCacheBudget, LayoutStore.defaultFrameCacheBudget)
        let store = backend == .sqlite
            ? try LayoutStore(path: temporary.store.location, cacheBudget: budgets.0, frameCacheBudget: budgets.1) : temporary.store
        var random = SeededRandom(seed: seed)
        var revision: Int64 = -1
        for step in 0..<4 {
            let memory = try LayoutEngine().layout(spec, crossExtent: extent)
            let read = try await Self.queryNewRevision(store, name: "random", extent: extent, after: revision)
            #expect(read.elements == memory.elements, "seed \(seed) step \(step)")
            revision = try #require(Self.directories(store).last).key.revision
            for query in 0..<8 {
                let rect = LayoutStoreRoundTripTests.randomRect(in: memory.contentSize, using: &random)
                let fresh = try await temporary.reopen()
                let expected = try await fresh.visibleElements(name: "random", crossExtent: extent, viewport: rect)
                fresh.close()
                #expect(expected == memory.visibleElements(viewport: rect), "seed \(seed) step \(step) query \(query)")
                #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect) == expected, "seed \(seed) step \(step) query \(query)")
                #expect(try await store.elements(name: "random", crossExtent: extent, in: rect) == LayoutStoreRoundTripTests.bruteForce(memory.elements, rect),
                        "seed \(seed) step \(step) query \(query)")
            }
            Self.expectExactCount(store, "seed \(seed) step \(step)")
            guard !spec.sections.isEmpty else { break }
            let section = random.int(0...(spec.sections.count - 1))
            let items = IncrementalUpdateTests.itemsToAppend(spec.sections[section].items, count: random.int(1...300), random: &random)
            spec.sections[section].items = spec.sections[section].items.appending(items)
            try await store.append(name: "random", section: section, items: items)
        }
        if store !== temporary.store { store.close() }
    }

    /// Inline loads (a tool's store) carry as the others do.
    @Test("a directory loaded inline takes over the warm frames too")
    func inlineLoad() async throws {
        let temporary = try await TemporaryStore(.sqlite)
        var spec = try Self.feed(40_100)
        try await temporary.store.save(spec, as: "feed", crossExtents: [390])
        let store = try LayoutStore(path: temporary.store.location, loadsDirectoriesInline: true)
        defer { store.close() }
        _ = try await Self.queryNewRevision(store, name: "feed", extent: 390, after: -1)
        let old = try #require(Self.directories(store).last)
        let warm = Self.filledGroups(old.value)
        #expect(warm.count == old.value.ids.count)
        let items = [Item(width: 40, height: 40)]
        spec.sections[1].items = spec.sections[1].items.appending(items)
        try await store.append(name: "feed", section: 1, items: items)
        let before = store.cacheStatistics
        // Loaded by the first query after the append: no wait, no query through the index.
        let elements = try await store.elements(name: "feed", crossExtent: 390, in: Self.everything)
        let after = store.cacheStatistics
        let new = try #require(Self.directories(store).last)
        #expect(new.key.revision > old.key.revision)
        // The append filled the last, partial group: the one group read.
        #expect(Self.groups(of: new.value, notIn: warm) == 1)
        #expect(after.frameMisses - before.frameMisses == 1 && after.frameHits - before.frameHits >= new.value.ids.count - 1, "\(before) → \(after)")
        #expect(elements == (try LayoutEngine().layout(spec, crossExtent: 390)).elements)
        Self.expectExactCount(store, "inline")
    }
}
