import Testing
import TesseraTestSupport
@testable import TesseraStore

/// The shared caches' tables: room reserved from the budget changes what
/// they allocate, never what they hold; a resolved name is hashed once.
@Suite("store: byte-budget caches")
struct ByteBudgetCacheTests {
    @Test("with room reserved, a cache holds, finds and evicts exactly what one without holds, finds and evicts", arguments: UInt64(1)...6)
    func reservedBehavesAlike(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let shards = Int(seed % 3) + 1
        let plain = ByteBudgetCache<Int, Int>(budget: 4_000, shards: shards)
        let reserved = ByteBudgetCache<Int, Int>(budget: 4_000, shards: shards, entryBytes: 40)
        for step in 0..<5_000 {
            let key = Int(random.next() % 400)
            if random.next() % 3 == 0 {
                let bytes = 40 + Int(random.next() % 200)
                plain.insert(step, bytes: bytes, for: key)
                reserved.insert(step, bytes: bytes, for: key)
            } else {
                #expect(plain.value(key) == reserved.value(key), "seed \(seed) step \(step)")
            }
        }
        let (a, b) = (plain.statistics, reserved.statistics)
        #expect(a == b && a.evictions > 0 && a.bytes <= 4_000, "\(a) \(b)")
        #expect(plain.values { _ in true }.map(\.key).sorted() == reserved.values { _ in true }.map(\.key).sorted())
    }

    @Test("a lookup near a slot, stale or not, finds what a plain lookup finds, and where", arguments: UInt64(1)...4)
    func lookupNearSlot(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let shards = Int(seed % 2) + 1
        let hinted = ByteBudgetCache<Int, Int>(budget: 2_000, shards: shards)
        let plain = ByteBudgetCache<Int, Int>(budget: 2_000, shards: shards)
        // The slot each key was last found at: stale once its entry is evicted and the slot reused.
        var slots: [Int: Int] = [:]
        var hintsTaken = 0
        for step in 0..<5_000 {
            let key = Int(random.next() % 120)
            if random.next() % 3 == 0 {
                let bytes = 40 + Int(random.next() % 100)
                hinted.insert(step, bytes: bytes, for: key)
                plain.insert(step, bytes: bytes, for: key)
                continue
            }
            // Sometimes a slot another key was found at, or none.
            let hint = random.next() % 4 == 0 ? Int(random.next() % 40) - 1 : slots[key, default: -1]
            let found = hinted.value(key, near: hint)
            #expect(found?.value == plain.value(key), "seed \(seed) step \(step)")
            if let found {
                #expect(hinted.value(key, near: found.slot)?.slot == found.slot)
                if found.slot == hint { hintsTaken += 1 }
                slots[key] = found.slot
            }
        }
        // Both evicted alike: the hinted lookups marked the same entries as used.
        #expect(hinted.statistics.evictions == plain.statistics.evictions && hinted.statistics.evictions > 0)
        #expect(hintsTaken > 100)
    }

    @Test("room is reserved for as many entries as a part's budget holds, at most the maximum")
    func reservedRoom() {
        // Filled to its budget with entries of the fewest bytes: every one is kept, none evicted.
        let cache = ByteBudgetCache<Int, Int>(budget: 8_000, entryBytes: 100)
        for key in 0..<80 { cache.insert(key, bytes: 100, for: key) }
        #expect(cache.statistics.layouts == 80 && cache.statistics.evictions == 0)
        #expect((0..<80).allSatisfy { cache.peek($0) == $0 })
        // A budget of more entries than the maximum still caches (the tables grow past it).
        let large = ByteBudgetCache<Int, Int>(budget: 1 << 30, entryBytes: 1)
        for key in 0..<(ByteBudgetCache<Int, Int>.maximumReserved + 10) { large.insert(key, bytes: 1, for: key) }
        #expect(large.statistics.layouts == ByteBudgetCache<Int, Int>.maximumReserved + 10)
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
