import Testing
import TesseraLayout
import TesseraTestSupport
import Locking
@testable import TesseraStore

/// The store's one cache: its list in order of use against a plain model,
/// names and directories within one budget, frames charged to their
/// directory, moved to a new revision, and dropped with it.
@Suite("store: the one cache")
struct StoreCacheTests {
    /// A directory of `groups` cell groups in one section, ids from `firstID`.
    static func directory(groups: Int, firstID: Int64 = 1) -> CachedLayout {
        let rows = (0..<groups).map { index in
            GroupRow(
                layoutID: 0, slot: 0, firstItem: SectionGroups.firstItem(at: index), id: firstID + Int64(index),
                bounds: QueryBounds(minCross: 0, maxCross: 10, minScroll: Double(index), maxScroll: Double(index) + 1),
                framesChecksum: Int64(index) &* 31 &+ 7
            )
        }
        return CachedLayout(sections: [], groups: LayoutGroups([rows]))
    }

    static func name(_ index: Int) -> (key: ResolvedName, box: LayoutRecordBox) {
        let layout = StoredLayout(
            id: Int64(index), specName: "feed-\(index)", axis: .vertical, crossExtent: 390, state: .fresh, contentLength: 1,
            sectionCount: 0, cellCount: 0, elementCount: 0, engineVersion: LayoutEngine.version, computeSeconds: 0
        )
        let record = LayoutRecord(layout: layout, overhang: 0, revision: 1)
        return (ResolvedName(tag: SnapshotTag(1, 2, 3, 4, 5, 6), name: "feed-\(index)", crossExtent: 390), LayoutRecordBox(record))
    }

    /// The sum of what the cache's directories hold in their slots, and of their own bytes.
    static func held(_ cache: StoreCache) -> (frames: Int, directories: Int) {
        cache.directories().reduce((0, 0)) { ($0.0 + $1.directory.framesBytes, $0.1 + $1.directory.byteCount) }
    }

    @Test("the list keeps, marks and drops exactly what a plain list in order of use does", arguments: UInt64(1)...6)
    func listAgainstModel(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var list = LRUList<(key: Int, value: Int)>(capacity: Int(seed % 2) * 64)
        var index: [Int: Int] = [:]
        // Most recently used last: (key, value, bytes).
        var model: [(key: Int, value: Int, bytes: Int)] = []
        let budget = 2_000
        for step in 0..<5_000 {
            let key = Int(random.next() % 120)
            if random.next() % 3 == 0 {
                let bytes = 40 + Int(random.next() % 100)
                let node = list.add((key, step), bytes: bytes)
                if let old = index.updateValue(node, forKey: key) { list.remove(old) }
                model.removeAll { $0.key == key }
                model.append((key, step, bytes))
                while list.bytes > budget, let victim = list.leastRecentlyUsed(besides: node) { index[list.remove(victim).key] = nil }
                while model.reduce(0, { $0 + $1.bytes }) > budget, model.count > 1 { model.removeFirst() }
            } else {
                let node = index[key]
                let expected = model.firstIndex { $0.key == key }
                #expect((node.map { list[$0].value }) == expected.map { model[$0].value }, "seed \(seed) step \(step)")
                if let node, let expected {
                    #expect(list.holds(node))
                    list.markUsed(node)
                    model.append(model.remove(at: expected))
                }
            }
            #expect(list.bytes == model.reduce(0) { $0 + $1.bytes } && list.count == model.count, "seed \(seed) step \(step)")
        }
        // Emptied oldest first, as the model orders them.
        var order: [Int] = []
        while let oldest = list.leastRecentlyUsed() { order.append(list.remove(oldest).key) }
        #expect(order == model.map(\.key) && list.bytes == 0 && list.count == 0)
    }

    @Test("names and directories share one budget: the least recently used entry goes first")
    func oneBudget() {
        let directory = Self.directory(groups: 4)
        let nameBytes = 200
        let cache = StoreCache(budget: 3 * nameBytes + directory.byteCount)
        let names = (0..<4).map(Self.name)
        for (key, box) in names.prefix(3) { cache.insert(box, bytes: nameBytes, for: key) }
        cache.insert(directory, for: LayoutCacheKey(layoutID: 9, revision: 1))
        // Name 0 used again: name 1 is now the least recently used.
        #expect(cache.resolved(names[0].key) === names[0].box)
        cache.insert(names[3].box, bytes: nameBytes, for: names[3].key)
        #expect(cache.resolved(names[1].key) == nil)
        #expect(cache.resolved(names[0].key) != nil && cache.resolved(names[2].key) != nil && cache.directory(LayoutCacheKey(layoutID: 9, revision: 1)) === directory)
        let statistics = cache.statistics
        #expect(statistics.bytes == 3 * nameBytes + directory.byteCount && statistics.names == 3 && statistics.layouts == 1 && statistics.evictions == 1)
        // An entry larger than the budget is not cached, and evicts nothing.
        cache.insert(Self.directory(groups: 4_000), for: LayoutCacheKey(layoutID: 10, revision: 1))
        #expect(cache.statistics.layouts == 1 && cache.statistics.evictions == 1)
    }

    @Test("frames are charged to their directory, counted once, and leave with it")
    func framesChargedToDirectory() throws {
        let one = try FrameCacheTests.frames(start: 0).byteCount
        let first = Self.directory(groups: 4), second = Self.directory(groups: 200, firstID: 100)
        // Larger than a group's frames: `first` with all four fits the budget without it.
        try #require(second.byteCount > one)
        let (a, b) = (LayoutCacheKey(layoutID: 1, revision: 1), LayoutCacheKey(layoutID: 2, revision: 1))
        let cache = StoreCache(budget: first.byteCount + second.byteCount + 3 * one)
        cache.insert(first, for: a)
        cache.insert(second, for: b)
        for ordinal in 0..<2 { cache.fill(try FrameCacheTests.frames(start: Double(ordinal)), ordinal: ordinal, of: first, key: a) }
        // A slot filled first by another query is not counted again; nor a slot that does not exist.
        cache.fill(try FrameCacheTests.frames(start: 9), ordinal: 1, of: first, key: a)
        cache.fill(try FrameCacheTests.frames(start: 9), ordinal: 7, of: first, key: a)
        // A directory not cached under its key is not filled.
        let stray = Self.directory(groups: 2)
        cache.fill(try FrameCacheTests.frames(start: 0), ordinal: 0, of: stray, key: a)
        #expect(!stray.isFilled(0))
        var statistics = cache.statistics
        #expect(statistics.frameGroups == 2 && statistics.frameBytes == 2 * one && Self.held(cache).frames == 2 * one)
        #expect(statistics.bytes == first.byteCount + second.byteCount + 2 * one)
        // `second`, then `first` used: two more frames of `first` go past the
        // budget, and the least recently used entry, `second`, goes.
        #expect(cache.directory(b) === second)
        #expect(cache.directory(a) === first)
        cache.fill(try FrameCacheTests.frames(start: 2), ordinal: 2, of: first, key: a)
        cache.fill(try FrameCacheTests.frames(start: 3), ordinal: 3, of: first, key: a)
        statistics = cache.statistics
        #expect(cache.directory(b) == nil && statistics.evictions == 1 && statistics.layouts == 1)
        #expect(statistics.frameGroups == 4 && statistics.bytes == first.byteCount + 4 * one && statistics.bytes <= statistics.budget)
        // A name inserted now pushes out `first`, and its frames with it.
        let name = Self.name(0)
        cache.insert(name.box, bytes: second.byteCount, for: name.key)
        statistics = cache.statistics
        #expect(statistics.layouts == 0 && statistics.frameGroups == 0 && statistics.frameBytes == 0 && statistics.bytes == second.byteCount)
        #expect((0..<4).allSatisfy { !first.isFilled($0) })
    }

    @Test("a directory whose own frames would outgrow the budget empties its slots first")
    func directoryOutgrowingBudget() throws {
        let one = try FrameCacheTests.frames(start: 0).byteCount
        let directory = Self.directory(groups: 6)
        let key = LayoutCacheKey(layoutID: 1, revision: 1)
        let cache = StoreCache(budget: directory.byteCount + 3 * one + one / 2)
        cache.insert(directory, for: key)
        for ordinal in 0..<4 { cache.fill(try FrameCacheTests.frames(start: Double(ordinal)), ordinal: ordinal, of: directory, key: key) }
        #expect((0..<6).map(directory.isFilled) == [false, false, false, true, false, false])
        let statistics = cache.statistics
        #expect(statistics.frameGroups == 1 && statistics.bytes == directory.byteCount + one && statistics.evictions == 1 && statistics.layouts == 1)
        // Frames no directory could hold within the budget are not cached.
        let tiny = StoreCache(budget: directory.byteCount + one - 1)
        tiny.insert(directory, for: key)
        tiny.fill(try FrameCacheTests.frames(start: 0), ordinal: 5, of: directory, key: key)
        #expect(!directory.isFilled(5) && tiny.statistics.frameGroups == 0)
    }

    @Test("a new revision takes over the frames of the groups it shares with the one before: moved, charged once")
    func newRevisionTakesFrames() throws {
        let one = try FrameCacheTests.frames(start: 0).byteCount
        let old = Self.directory(groups: 4)
        let cache = StoreCache(budget: 1 << 20)
        let oldKey = LayoutCacheKey(layoutID: 1, revision: 3)
        cache.insert(old, for: oldKey)
        var inserted: [CachedFrames] = []
        for ordinal in 0..<4 {
            let frames = try FrameCacheTests.frames(start: Double(ordinal) * 1e5)
            inserted.append(frames)
            cache.fill(frames, ordinal: ordinal, of: old, key: oldKey)
        }
        // The new revision (old checksums: id 1…4 → 7, 38, 69, 100): id 2 kept and
        // moved to slot 0, id 3 changed, id 5 new, id 4 kept in slot 3, id 1 gone.
        let rows = [(Int64(2), Int64(38)), (3, 99), (5, 0), (4, 100)].enumerated().map { index, group in
            GroupRow(
                layoutID: 0, slot: 0, firstItem: SectionGroups.firstItem(at: index), id: group.0,
                bounds: QueryBounds(minCross: 0, maxCross: 1, minScroll: 0, maxScroll: 1), framesChecksum: group.1
            )
        }
        let groups = LayoutGroups([rows])
        let new = CachedLayout(sections: [], groups: groups)
        cache.insert(new, for: LayoutCacheKey(layoutID: 1, revision: 4))
        #expect((0..<4).map(new.isFilled) == [true, false, false, true])
        var found: [CachedFrames?] = []
        #expect(new.frames(base: 0, positions: [0, 3], into: &found) == 2 && found[0] === inserted[1] && found[1] === inserted[3])
        #expect((0..<4).map(old.isFilled) == [true, false, true, false])
        var statistics = cache.statistics
        #expect(statistics.frameGroups == 4 && statistics.frameBytes == 4 * one && Self.held(cache).frames == 4 * one)
        #expect(statistics.bytes == old.byteCount + new.byteCount + 4 * one)
        // Inserted again for the same revision (a second load): it takes the frames of the first.
        let again = CachedLayout(sections: [], groups: groups)
        cache.insert(again, for: LayoutCacheKey(layoutID: 1, revision: 4))
        #expect(again.isFilled(0) && again.isFilled(3) && !new.isFilled(0) && !new.isFilled(3))
        #expect(!again.holdsNoFrames && new.holdsNoFrames && !old.holdsNoFrames)
        statistics = cache.statistics
        #expect(statistics.layouts == 2 && statistics.frameGroups == 4 && statistics.bytes == old.byteCount + again.byteCount + 4 * one)
    }

    @Test("random names, directories, frames and revisions: the count equals what the entries hold, within the budget", arguments: UInt64(1)...6)
    func randomCount(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let frames = try (0..<8).map { try FrameCacheTests.frames(start: Double($0) * 1e4, count: 50 + 25 * $0) }
        let cache = StoreCache(budget: 40_000 + Int(seed) * 5_000)
        var revisions: [Int64: Int64] = [:]
        var live: [(key: LayoutCacheKey, directory: CachedLayout)] = []
        for step in 0..<3_000 {
            switch random.next() % 4 {
            case 0:
                let id = Int64(random.next() % 6)
                let revision = revisions[id, default: 0] + Int64(random.next() % 2)
                revisions[id] = revision
                let directory = Self.directory(groups: 4 + Int(random.next() % 12), firstID: Int64(random.next() % 3))
                let key = LayoutCacheKey(layoutID: id, revision: revision)
                cache.insert(directory, for: key)
                live.append((key, directory))
            case 1:
                let name = Self.name(Int(random.next() % 40))
                cache.insert(name.box, bytes: 150 + Int(random.next() % 300), for: name.key)
            default:
                guard !live.isEmpty else { continue }
                let (key, directory) = live[Int(random.next() % UInt64(live.count))]
                let ordinal = Int(random.next() % UInt64(directory.ids.count))
                cache.fill(frames[Int(random.next() % 8)], ordinal: ordinal, of: directory, key: key)
            }
            let statistics = cache.statistics
            let held = Self.held(cache)
            #expect(statistics.frameBytes == held.frames && statistics.bytes <= statistics.budget, "seed \(seed) step \(step)")
            // What is left is the names', each charged 150 to 449 bytes.
            let names = statistics.bytes - held.frames - held.directories
            #expect(names >= 150 * statistics.names && names < 450 * statistics.names + 1, "seed \(seed) step \(step)")
            if step % 100 == 0 { Self.expectFilledCounts(live.map(\.directory), "seed \(seed) step \(step)") }
        }
        #expect(cache.statistics.evictions > 0)
        Self.expectFilledCounts(live.map(\.directory), "seed \(seed)")
    }

    @Test("threads that insert, fill and look up at once leave a count equal to what the entries hold")
    func concurrentUse() async throws {
        let cache = StoreCache(budget: 60_000)
        let keys = (0..<8).map { LayoutCacheKey(layoutID: Int64($0 % 4), revision: Int64($0 / 4)) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    // Each task's own: frames are shared only through the cache's locks.
                    guard let frames = try? (0..<4).map({ try FrameCacheTests.frames(start: Double($0) * 1e4, count: 60) }) else { return }
                    var random = SeededRandom(seed: UInt64(thread) + 1)
                    for _ in 0..<2_000 {
                        let key = keys[Int(random.next() % 8)]
                        switch random.next() % 4 {
                        case 0: cache.insert(Self.directory(groups: 8 + Int(random.next() % 8)), for: key)
                        case 1:
                            let name = Self.name(Int(random.next() % 20))
                            cache.insert(name.box, bytes: 300, for: name.key)
                            _ = cache.resolved(name.key)
                        default:
                            guard let directory = cache.directory(key) else { continue }
                            cache.fill(frames[Int(random.next() % 4)], ordinal: Int(random.next() % 8), of: directory, key: key)
                        }
                    }
                }
            }
        }
        let statistics = cache.statistics
        let held = Self.held(cache)
        #expect(statistics.frameBytes == held.frames && statistics.bytes <= statistics.budget && statistics.frameGroups > 0, "\(statistics)")
        #expect(statistics.layouts == cache.directories().count)
        Self.expectFilledCounts(cache.directories().map(\.directory), "after the threads")
    }

    /// Each directory's count of filled slots (``CachedLayout/holdsNoFrames``) agrees with its slots.
    static func expectFilledCounts(_ directories: [CachedLayout], _ context: String) {
        for directory in directories {
            #expect(directory.holdsNoFrames == !directory.ids.indices.contains(where: directory.isFilled), "\(context)")
        }
    }

    @Test("a resolved name equals another only with the same state, name and extent, and hashes alike then")
    func resolvedNameKeys() {
        let tag = SnapshotTag(1, 2, 3, 4, 5, 6)
        let name = ResolvedName(tag: tag, name: "feed-12", crossExtent: 390)
        let same = ResolvedName(tag: SnapshotTag(words: [1, 2, 3, 4, 5, 6]), name: "feed-" + "12", crossExtent: 390)
        #expect(name == same && name.hashValue == same.hashValue)
        for other in [
            ResolvedName(tag: SnapshotTag(1, 2, 3, 4, 5, 7), name: "feed-12", crossExtent: 390),
            ResolvedName(tag: tag, name: "feed-13", crossExtent: 390),
            ResolvedName(tag: tag, name: "feed-12", crossExtent: 430),
        ] {
            #expect(name != other)
        }
        var names = Set<ResolvedName>()
        for feed in 0..<1_000 {
            for extent in [390.0, 430] { names.insert(ResolvedName(tag: tag, name: "feed-\(feed)", crossExtent: extent)) }
        }
        #expect(names.count == 2_000 && names.contains(same))
    }
}
