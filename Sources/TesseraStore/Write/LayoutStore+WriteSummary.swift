import TesseraLayout

/// Directory summaries (``DirectorySummary``), written by every writer of
/// a layout's rows, in the transaction that writes them.
extension LayoutStore {
    /// Writes the summary of the rows layout `layoutID` has now, inside
    /// the caller's write, once they are all written: a compute, an
    /// update, an append and a resize each end with it. A layout with
    /// more rows than a summary holds has its summary cleared (when it had
    /// one), so that none outlives the rows it summarized.
    static func writeDirectorySummary(layoutID: Int64, storage: RowTransaction, location: String) async throws {
        let summary = try await storage.read { snapshot -> (bytes: [UInt8]?, had: Bool)? in
            guard let record = try snapshot.layoutRecord(id: layoutID) else { return nil }
            let layout = record.layout
            // At least one row per section and one per started group: over the bound, no read.
            let fewestRows = layout.sectionCount + SectionGroups.groupCount(itemCount: layout.cellCount)
            guard fewestRows <= DirectorySummary.maximumRows else { return (nil, record.directorySummary != nil) }
            let rows = try directoryRows(of: record, storage: snapshot, location: location)
            let bytes = DirectorySummary.encode(sections: rows.sections, groups: rows.groups, layoutID: layoutID, revision: record.revision)
            return (bytes, record.directorySummary != nil)
        }
        guard let summary, summary.bytes != nil || summary.had else { return }
        try await storage.writeDirectorySummary(layoutID: layoutID, summary.bytes)
    }

    /// Writes the summary of a layout row inserted in this write (revision
    /// 0, with no summary yet) from the rows `recorded` saw written, with
    /// no read; reads them back (``writeDirectorySummary(layoutID:storage:location:)``)
    /// when the recorder could not tell them all (a backend that assigns
    /// group ids later).
    package static func writeNewLayoutSummary(
        layoutID: Int64, sectionCount: Int, recorded: DirectoryRecorder, storage: RowTransaction, location: String
    ) async throws {
        switch recorded.directory(sectionCount: sectionCount) {
        case .tooManyRows:
            return
        case .unknown:
            try await writeDirectorySummary(layoutID: layoutID, storage: storage, location: location)
        case .rows(let sections, let groups):
            guard let bytes = DirectorySummary.encode(sections: sections, groups: groups, layoutID: layoutID, revision: 0) else { return }
            try await storage.writeDirectorySummary(layoutID: layoutID, bytes)
        }
    }
}
