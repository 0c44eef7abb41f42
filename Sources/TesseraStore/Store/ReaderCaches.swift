import Locking

/// The reader caches of a store, lent to one read at a time: as many as
/// reads ran at once, up to ``maximumKept`` kept between reads (each
/// holds up to 128 recent layouts and 8 directories, shared with the
/// store's caches).
final class ReaderCaches: Sendable {
    private let idle = Locked<[ReaderCache]>([])
    private static let maximumKept = 8
    /// The store's shared cache of verified frames, which every reader cache names.
    let frames: FrameCache
    /// The store's other shared caches, whose uses reader caches count.
    private let names: ResolvedNames?
    private let directories: LayoutCache
    /// The store's location, which every reader cache names for errors.
    let location: String

    init(frames: FrameCache, names: ResolvedNames?, directories: LayoutCache, location: String) {
        self.frames = frames
        self.names = names
        self.directories = directories
        self.location = location
    }

    func withCache<T>(_ body: (ReaderCache) throws -> T) rethrows -> T {
        let cache = idle.withLock { $0.popLast() } ?? ReaderCache(frames: frames, location: location)
        defer {
            let kept = idle.withLock { idle in
                guard idle.count < Self.maximumKept else { return false }
                idle.append(cache)
                return true
            }
            // Dropped: its uses go to the caches' counts now.
            if !kept { flush(cache) }
        }
        return try body(cache)
    }

    /// Adds the uses the idle reader caches counted to the shared caches'
    /// counts (before their statistics are read): exact once no read is
    /// under way, as a reader cache is idle again when its read ends.
    func flushCounts() {
        idle.withLock { idle in
            for cache in idle { flush(cache) }
        }
    }

    /// Moves `cache`'s counted uses to the shared caches' counts; the
    /// caller has it to itself (idle, under the lock, or just dropped).
    private func flush(_ cache: ReaderCache) {
        let counted = cache.counted
        guard counted != CountedUses() else { return }
        cache.counted = CountedUses()
        frames.count(hits: counted.frameHits, misses: counted.frameMisses)
        names?.count(hits: counted.nameHits)
        directories.count(hits: counted.directoryHits)
    }
}

/// Uses of the shared caches one reader cache counted (see ``ReaderCache/counted``).
struct CountedUses: Equatable {
    /// Cell groups whose frames queries found cached, and did not.
    var frameHits = 0
    var frameMisses = 0
    /// Queries answered from memory: each found its name resolved and its directory cached.
    var nameHits = 0
    var directoryHits = 0
}
