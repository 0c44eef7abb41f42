/// Which groups a new revision of a layout shares with an older one: their
/// frames move over from the older directory's slots (``StoreCache/insert(_:for:)``).
extension CachedLayout {
    /// For each slot of `old`, the slot here of the same group, or -1: the
    /// same id and frames checksum, hence the same verified bytes (an id is
    /// never reused for other frames without another checksum). Groups
    /// mostly keep their slot (an append changes the last ones); the others
    /// are found by id. One pass over both directories.
    func slots(carriedFrom old: CachedLayout) -> [Int] {
        let (oldIDs, oldChecksums) = (old.groups.ids, old.groups.checksums)
        var target = [Int](repeating: -1, count: oldIDs.count)
        // Built when a group has moved, once.
        var slotOfID: [Int64: Int]?
        for (slot, id) in groups.ids.enumerated() {
            var source: Int?
            if slot < oldIDs.count, oldIDs[slot] == id {
                source = slot
            } else {
                if slotOfID == nil { slotOfID = Dictionary(zip(oldIDs, oldIDs.indices), uniquingKeysWith: { first, _ in first }) }
                source = slotOfID?[id]
            }
            if let source, oldChecksums[source] == groups.checksums[slot] { target[source] = slot }
        }
        return target
    }
}
