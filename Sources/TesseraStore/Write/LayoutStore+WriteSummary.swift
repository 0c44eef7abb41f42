import TesseraLayout

/// Directory summaries (``DirectorySummary``), written by every writer of
/// a layout's rows, in the transaction that writes them.
extension LayoutStore {
    /// Writes the summary of the rows layout `layoutID` has now, inside the caller's write, once they are
    /// all written; past the rows a summary holds, it clears the one the layout had.
    static func writeDirectorySummary(layoutID: Int64, storage: RowTransaction) async throws {
        let summary = try await storage.read { snapshot -> (bytes: [UInt8]?, had: Bool)? in
            guard let record = try snapshot.layoutRecord(id: layoutID) else { return nil }
            let layout = record.layout
            // At least one row per section and one per started group: over the bound, no read.
            let fewestRows = layout.sectionCount + SectionGroups.groupCount(itemCount: layout.cellCount)
            guard fewestRows <= DirectorySummary.maximumRows else { return (nil, record.directorySummary != nil) }
            let rows = try directoryRows(of: record, storage: snapshot)
            let bytes = DirectorySummary.encode(sections: rows.sections, groups: rows.groups, layoutID: layoutID, revision: record.revision)
            return (bytes, record.directorySummary != nil)
        }
        guard let summary, summary.bytes != nil || summary.had else { return }
        try await storage.writeDirectorySummary(layoutID: layoutID, summary.bytes)
    }

    /// Writes the summary of a layout row inserted in this write (revision 0) from the rows `recorded` saw
    /// written, else from the rows read back (``writeDirectorySummary(layoutID:storage:)``).
    package static func writeNewLayoutSummary(
        layoutID: Int64, sectionCount: Int, recorded: DirectoryRecorder, storage: RowTransaction
    ) async throws {
        switch recorded.directory(sectionCount: sectionCount) {
        case .tooManyRows:
            return
        case .unknown:
            try await writeDirectorySummary(layoutID: layoutID, storage: storage)
        case .rows(let sections, let groups):
            guard let bytes = DirectorySummary.encode(sections: sections, groups: groups, layoutID: layoutID, revision: 0) else { return }
            try await storage.writeDirectorySummary(layoutID: layoutID, bytes)
        }
    }
}
