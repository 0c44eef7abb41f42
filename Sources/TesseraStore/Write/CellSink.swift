import Locking
import TesseraLayout
import TesseraStoreFormat

/// Where a ``CellGroupWriter`` puts cell groups and section rows: a backend's
/// write transaction, or a ``BufferedLayout`` to be written later in one
/// short transaction.
package protocol CellSink: AnyObject {
    /// Inserts or replaces the group of a slot starting at `firstItem`,
    /// with how far the slot's groups up to it reach. Returns the group's
    /// row id, or nil when the row gets it later (a write sent in a batch).
    @discardableResult
    func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64?
    /// Inserts or replaces a section row.
    func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws
}

/// A whole layout's rows in memory: computed outside any transaction, then
/// written in one short one, so that computing a layout never holds the
/// writer. The sink fills them; ``rows`` hands them on, a value.
package final class BufferedLayout: CellSink {
    /// The rows buffered: a value, `Sendable`, to hand to another thread.
    package struct Rows: Sendable {
        fileprivate struct Group: Sendable {
            var slot: Int
            var firstItem: Int
            var frames: [UInt8]
            var bounds: QueryBounds
            var reach: GroupReach
        }

        fileprivate var groups: [Group] = []
        fileprivate var sections: [(record: SectionRecord, placerState: [UInt8]?)] = []

        /// About the bytes they hold.
        package var bytes: Int {
            groups.reduce(0) { $0 + $1.frames.count + MemoryLayout<Group>.stride }
                + sections.reduce(0) { $0 + ($1.placerState?.count ?? 0) + MemoryLayout<SectionRecord>.stride }
        }

        /// Writes every row, as `layoutID`'s.
        func replay(into storage: any CellSink, layoutID: Int64) throws {
            for group in groups {
                try group.frames.withUnsafeBytes { raw in
                    _ = try storage.writeGroup(
                        layoutID: layoutID, slot: group.slot, firstItem: group.firstItem, frames: raw, bounds: group.bounds, reach: group.reach
                    )
                }
            }
            for section in sections {
                try storage.writeSection(layoutID: layoutID, section.record, placerState: section.placerState)
            }
        }
    }

    /// What was written so far (since the last piece handed on).
    private(set) var rows = Rows()
    /// Where the rows go a piece of about 256 KiB of frames at a time, as they are written (nil: kept).
    private let handOff: HandOff<Rows, BufferedComputation>?
    private var pieceBytes = 0

    package init(handingTo handOff: HandOff<Rows, BufferedComputation>? = nil) { self.handOff = handOff }

    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        rows.groups.append(Rows.Group(slot: slot, firstItem: firstItem, frames: Array(frames), bounds: bounds, reach: reach))
        pieceBytes += frames.count
        if let handOff, pieceBytes >= 1 << 18 {
            handOff.send(rows)
            (rows, pieceBytes) = (Rows(), 0)
        }
        // Its row is written later, by ``Rows/replay(into:layoutID:)``, as
        // many times as it was written here (a write over a row updates it).
        return nil
    }

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        rows.sections.append((section, placerState))
    }
}
