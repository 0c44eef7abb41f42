import TesseraLayout

/// What one reader connection remembers between queries: resolved layouts
/// (name and extent to layout id, revision, freshness), valid while the
/// backend's change counter is unchanged (it changes whenever another
/// connection commits). Layout directories are shared by all readers
/// (``LayoutCache``).
final class ReaderCache {
    private static let maximumResolved = 4096

    private struct ResolvedKey: Hashable {
        var name: String
        var crossExtent: Double
    }

    private var resolved: [ResolvedKey: LayoutRecord] = [:]
    private var resolvedVersion: Int64?
    /// The keys of `resolved` in the order they were added: when full, the
    /// oldest goes (a dictionary has no cheap "some key": taking its first
    /// scans from the start of its table, longer after every removal).
    private var resolvedOrder: [ResolvedKey] = []
    private var oldestResolved = 0

    private struct VerifiedGroup: Hashable {
        var id: Int64
        var checksum: Int64
    }

    /// Frame blobs this connection hashed and found intact, by id and the
    /// checksum their directory row gave (an id reused for other frames
    /// comes with another checksum). A blob's bytes do not change while its
    /// directory row stays: only a rewrite changes them, and it writes both.
    private var verifiedGroups: Set<VerifiedGroup> = []
    private static let maximumVerified = 1 << 20

    /// Whether the frames of `group` were verified against `checksum`.
    func isVerified(group: Int64, checksum: Int64) -> Bool {
        verifiedGroups.contains(VerifiedGroup(id: group, checksum: checksum))
    }

    /// Hashes a group's frames: true, remembered, when they match `checksum`.
    func verify(_ frames: UnsafeRawBufferPointer, group: Int64, checksum: Int64) -> Bool {
        guard Checksum.of(frames) == checksum else { return false }
        if verifiedGroups.count >= Self.maximumVerified { verifiedGroups.removeAll(keepingCapacity: true) }
        verifiedGroups.insert(VerifiedGroup(id: group, checksum: checksum))
        return true
    }

    /// Directories this connection took from the shared cache lately: a
    /// query finds its own here without taking the shared cache's lock,
    /// which every reader of the store contends for.
    private var directories: [LayoutCacheKey: RecentDirectory] = [:]
    private static let maximumDirectories = 8
    /// Uses of a directory found here between two lookups in the shared
    /// cache, which keep it recent there and drop it here once evicted
    /// there (so that memory stays within the shared cache's budget but
    /// for these few).
    private static let usesBetweenLookups = 64

    private struct RecentDirectory {
        var layout: CachedLayout
        var uses: Int
    }

    /// The directory of `key`, from this connection's recent ones or from
    /// the shared cache; nil when the shared cache does not hold it. The
    /// use is not counted (see ``LayoutCache``).
    func directory(_ key: LayoutCacheKey, in shared: LayoutCache) -> CachedLayout? {
        if var recent = directories[key] {
            recent.uses += 1
            guard recent.uses < Self.usesBetweenLookups else {
                directories[key] = nil
                return remember(shared.layout(key), for: key)
            }
            directories[key] = recent
            return recent.layout
        }
        return remember(shared.layout(key), for: key)
    }

    private func remember(_ layout: CachedLayout?, for key: LayoutCacheKey) -> CachedLayout? {
        guard let layout else { return nil }
        if directories.count >= Self.maximumDirectories { directories.removeAll(keepingCapacity: true) }
        directories[key] = RecentDirectory(layout: layout, uses: 0)
        return layout
    }

    static func of(_ storage: any StorageReader) -> ReaderCache {
        if let cache = storage.attachment as? ReaderCache { return cache }
        let cache = ReaderCache()
        storage.attachment = cache
        return cache
    }

    /// The fresh layout of a spec at an extent, or nil when it is missing or
    /// stale. Call it inside the read of the query. When the backend names
    /// the read's state exactly, layouts resolved by any reader of that
    /// state are shared through `shared`.
    func freshLayout(name: String, crossExtent: Double, storage: any StorageReader, shared: ResolvedNames) throws -> LayoutRecord? {
        if let tag = storage.snapshotTag {
            let key = ResolvedName(tag: tag, name: name, crossExtent: crossExtent)
            if let layout = shared.value(key) { return layout }
            guard let layout = try storage.freshLayoutRecord(name: name, crossExtent: crossExtent) else { return nil }
            shared.insert(layout, bytes: key.bytes(of: layout), for: key)
            return layout
        }
        return try connectionFreshLayout(name: name, crossExtent: crossExtent, storage: storage)
    }

    /// `freshLayout`, remembered by this connection only, while its change counter stays.
    private func connectionFreshLayout(name: String, crossExtent: Double, storage: any StorageReader) throws -> LayoutRecord? {
        // Changes whenever another connection committed before the snapshot began.
        let version = try storage.changeCounter()
        if version != resolvedVersion {
            resolved.removeAll(keepingCapacity: true)
            resolvedOrder.removeAll(keepingCapacity: true)
            oldestResolved = 0
            resolvedVersion = version
        }
        let key = ResolvedKey(name: name, crossExtent: crossExtent)
        if storage.reusesResolvedLayouts, let layout = resolved[key] { return layout }
        guard let layout = try storage.freshLayoutRecord(name: name, crossExtent: crossExtent) else { return nil }
        if resolved.updateValue(layout, forKey: key) != nil { return layout }
        // Full: the oldest entry goes, not all.
        if resolvedOrder.count < Self.maximumResolved {
            resolvedOrder.append(key)
        } else {
            resolved[resolvedOrder[oldestResolved]] = nil
            resolvedOrder[oldestResolved] = key
            oldestResolved = (oldestResolved + 1) % Self.maximumResolved
        }
        return layout
    }
}
