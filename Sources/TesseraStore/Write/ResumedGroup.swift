import TesseraLayout
import TesseraStoreFormat

/// What a resumed section has stored where the engine goes on: the group its first written cell
/// falls in (the only one not written whole: new frames replace its own item by item) and the
/// reach of the one before. Read in one statement before the engine runs: writing cells reads nothing.
struct ResumedGroup: Sendable {
    /// The first item of the group the first written cell falls in.
    var firstItem: Int
    /// That group's stored frames, verified; empty when none is stored.
    var frames: [LocalFrame]
    /// How far the slot's groups up to the one before reach; nil when
    /// `firstItem` is 0, or the row is missing or has none.
    var previousReach: GroupReach?

    /// Reads what is stored for a section whose engine goes on by writing
    /// item `firstWritten` first, in slot `slot` of `layoutID`.
    static func read(
        layoutID: Int64, slot: Int, section: Int, firstWritten: Int, storage: RowTransaction
    ) async throws -> ResumedGroup {
        let location = storage.location
        let first = SectionGroups.firstItem(ofGroupHolding: firstWritten)
        let previous = max(0, first - FrameBlob.framesPerGroup)
        let rows = try await storage.read { try $0.groups(
            layoutID: layoutID, slot: slot, firstItems: previous...first, alsoFirstItem: nil, framesOf: first...first
        ) }
        var frames: [LocalFrame] = []
        if let row = rows.first(where: { $0.firstItem == first }) {
            guard row.framesAreIntact, let bytes = row.frames else {
                throw damaged(first: first, section: section, location: location, "does not match its checksum, or is missing")
            }
            guard let decoded = bytes.withUnsafeBytes(FrameBlob.decode) else {
                throw damaged(first: first, section: section, location: location, "holds bytes that are not frames")
            }
            frames = decoded
        }
        let previousReach = first > 0 ? rows.first(where: { $0.firstItem == previous })?.reach : nil
        return ResumedGroup(firstItem: first, frames: frames, previousReach: previousReach)
    }

    private static func damaged(first: Int, section: Int, location: String, _ what: String) -> StoreError {
        StoreError.damaged(store: location, "the cell group of items \(first)… of section \(section) \(what)")
    }
}
