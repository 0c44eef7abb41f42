import TesseraLayout

/// Directory summaries (``DirectorySummary``), read with a layout's row
/// on a query's first look at the layout: a directory with no statement.
extension LayoutStore {
    /// The directory the summary read with `record` holds, verified
    /// (``DirectorySummary``); nil when the layout has none. A summary
    /// that fails is `damaged`, never passed over.
    func summarizedDirectory(of record: LayoutRecord) throws -> CachedLayout? {
        guard let summary = record.directorySummary else { return nil }
        let layout = record.layout
        do {
            let (sections, groups) = try DirectorySummary.decode(summary, record: record)
            return try Self.complete(sections: sections, groups: groups, layout: layout, location: location)
        } catch let damage as SummaryDamage {
            throw StoreError.damaged(store: location, spec: layout.specName, crossExtent: layout.crossExtent, "the layout's directory summary \(damage.reason)")
        }
    }
}
