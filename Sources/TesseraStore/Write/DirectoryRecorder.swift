import TesseraLayout
import TesseraStoreFormat

/// A ``CellSink`` that hands every row to the storage and remembers the directory rows written, so
/// that a new layout's summary is made from them (Architecture.md, "Directory summaries"); past
/// ``DirectorySummary/maximumRows`` rows, or when the storage gives group ids later, it knows nothing.
package final class DirectoryRecorder: CellSink {
    /// What the rows written make.
    enum Directory {
        /// Every section in order, each with its groups in order.
        case rows(sections: [SectionRecord], groups: LayoutGroups)
        /// More rows than a summary holds.
        case tooManyRows
        /// Not known from the writes alone.
        case unknown
    }

    private let storage: any CellSink
    private var sections: [SectionRecord] = []
    private var groups: [GroupRow] = []
    /// Why it stopped recording; nil while it records.
    private var stopped: Directory?

    package init(_ storage: any CellSink) {
        self.storage = storage
    }

    package func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        let id = try storage.writeGroup(layoutID: layoutID, slot: slot, firstItem: firstItem, frames: frames, bounds: bounds, reach: reach)
        guard stopped == nil else { return id }
        guard let id else { return forget(.unknown, id: nil) }
        groups.append(GroupRow(layoutID: layoutID, slot: slot, firstItem: firstItem, id: id, bounds: bounds, framesChecksum: Checksum.of(frames)))
        return sections.count + groups.count > DirectorySummary.maximumRows ? forget(.tooManyRows, id: id) : id
    }

    package func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        try storage.writeSection(layoutID: layoutID, section, placerState: placerState)
        guard stopped == nil else { return }
        sections.append(section)
        if sections.count + groups.count > DirectorySummary.maximumRows { forget(.tooManyRows, id: nil) }
    }

    /// Stops recording: what was kept is let go.
    @discardableResult
    private func forget(_ reason: Directory, id: Int64?) -> Int64? {
        stopped = reason
        sections = []
        groups = []
        return id
    }

    /// The directory of the rows written so far, for a layout of
    /// `sectionCount` sections.
    func directory(sectionCount: Int) -> Directory {
        if let stopped { return stopped }
        let ordered = sections.sorted { $0.geometry.index < $1.geometry.index }
        let sorted = groups.sorted { ($0.slot, $0.firstItem) < ($1.slot, $1.firstItem) }
        guard let builder = LayoutGroups(sections: ordered, groups: sorted),
              LayoutStore.incompleteness(sections: ordered, groups: builder, sectionCount: sectionCount) == nil
        else { return .unknown }
        return .rows(sections: ordered, groups: builder)
    }
}
