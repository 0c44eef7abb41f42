/// Directories entering the shared cache, warm: a new revision of a layout
/// takes over the verified frames of the groups it shares with the revision
/// cached before it, so that an append (a feed's common change) does not
/// make its first queries read and verify every group's frames again.
extension LayoutStore {
    /// Caches `directory` as the directory of `key`, first moving into its
    /// slots the frames of its unchanged groups (same id and checksum) from
    /// the latest other directory of the same layout cached, whatever path
    /// loaded it (the layout's summary, inline, in the background, a tile
    /// read). Nothing when the cache is off or would not keep it.
    func cache(_ directory: CachedLayout, for key: LayoutCacheKey) {
        guard layoutCache.budget > 0 else { return }
        let bytes = directory.byteCount
        guard layoutCache.admits(bytes: bytes) else { return }
        if frameCache.budget > 0, let previous = layoutCache.predecessor(of: key, besides: directory) {
            frameCache.carry(from: previous.frames, to: directory.frames, slots: directory.slots(carriedFrom: previous))
        }
        layoutCache.insert(directory, bytes: bytes, for: key)
    }
}
