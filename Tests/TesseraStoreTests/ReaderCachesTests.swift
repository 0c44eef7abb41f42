import Testing
@testable import TesseraStore

/// The reader caches a store lends its reads count their uses of the
/// shared caches; the counts reach the caches' statistics whether the
/// reader cache is kept or dropped.
@Suite("store: reader caches' counts")
struct ReaderCachesTests {
    /// `depth` reads at once (nested, each holding a reader cache), each
    /// counting its uses: the store keeps 8 reader caches, so the
    /// outermost ones are dropped when they end.
    private static func nested(_ caches: ReaderCaches, depth: Int, _ use: (ReaderCache) -> Void) {
        guard depth > 0 else { return }
        caches.withCache { cache in
            use(cache)
            nested(caches, depth: depth - 1, use)
        }
    }

    @Test("uses counted by reader caches kept and dropped all reach the caches' statistics, once")
    func keptAndDropped() {
        let frames = FrameCache(frameBudget: 1 << 20)
        let names = ResolvedNames(cacheBudget: 1 << 20)
        let directories = LayoutCache(directoryBudget: 1 << 20)
        let caches = ReaderCaches(frames: frames, names: names, directories: directories, location: "test")
        Self.nested(caches, depth: 12) { cache in
            cache.counted.frameHits += 3
            cache.counted.frameMisses += 1
            cache.counted.nameHits += 1
            cache.counted.directoryHits += 2
        }
        // The 4 dropped caches' uses are counted already; the 8 kept ones' once flushed.
        #expect(frames.statistics.hits == 4 * 3 && directories.statistics.hits == 4 * 2 && names.statistics.hits == 4)
        caches.flushCounts()
        #expect(frames.statistics.hits == 12 * 3 && frames.statistics.misses == 12)
        #expect(names.statistics.hits == 12 && directories.statistics.hits == 12 * 2)
        // Flushed once: again adds nothing.
        caches.flushCounts()
        #expect(frames.statistics.hits == 12 * 3 && names.statistics.hits == 12 && directories.statistics.hits == 12 * 2)
        // A reader cache lent again starts from zero.
        caches.withCache { #expect($0.counted == CountedUses()) }
    }
}
