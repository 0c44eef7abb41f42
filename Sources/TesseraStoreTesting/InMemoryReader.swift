import TesseraLayout
import TesseraStore

/// One read of an in-memory store: a snapshot of the committed tables (see
/// `ReadSnapshot`), which nothing changes while it reads, in every role.
/// Each method is what one statement of the SQLite backend does, on the
/// tables' values.
class InMemoryReader: ReadSnapshot, SpecReads, LayoutReads, SectionReads, CellGroupReads {
    /// The rows this read sees (a writer changes its own).
    var tables: InMemoryTables
    /// The commit the snapshot was taken at.
    let version: Int64
    let location: String
    init(_ committed: InMemoryDatabase.Committed, location: String) {
        tables = committed.tables
        version = committed.version
        self.location = location
    }

    /// The commit read names the rows exactly: readers of one commit share
    /// the layouts they resolve. A write's tables change under it.
    package var resolutionScope: ResolutionScope? { ResolutionScope(tag: InMemoryDatabase.tag(version)) }

    /// Throws `damaged` naming `what` unless the row is `intact`.
    func verify(_ intact: Bool, _ what: @autoclosure () -> String) throws {
        guard intact else { throw StoreError.damaged(store: location, "\(what()) does not match its checksum") }
    }

    // MARK: Specs

    package func specID(name: String) throws -> Int64? {
        tables.specIDs[name]
    }

    /// `spec` if it matches its checksum.
    private func verified(_ spec: SpecRowData) throws -> SpecRowData {
        try verify(spec.isIntact, "the row of the spec \(spec.name.quotedForMessage)")
        return spec
    }

    /// The verified row of the spec named `name`.
    private func spec(name: String) throws -> SpecRowData? {
        guard let id = tables.specIDs[name], let spec = tables.specs[id] else { return nil }
        return try verified(spec)
    }

    package func specRecord(name: String) throws -> SpecRecord? {
        try spec(name: name).map { SpecRecord(id: $0.id, header: $0.body, contentHash: $0.contentHash, sectionCount: $0.sectionCount) }
    }

    private static func summary(of spec: SpecRowData) -> StoredSpec {
        StoredSpec(
            name: spec.name, axis: Axis(rawValue: spec.axis) ?? .vertical, sectionCount: spec.sectionCount,
            contentHash: spec.contentHash, updatedAt: spec.updatedAt
        )
    }

    /// None: the tables file specs by Swift strings, one entry for equivalent names.
    package func nameConflicts() throws -> [String] { [] }

    /// By the byte order of the names' UTF-8, as the SQL backends' indexes
    /// give it (Swift's own `<` on strings is another order).
    package func specSummaries(after: String?, limit: Int) throws -> [StoredSpec] {
        let specs = tables.specs.values.filter { spec in after.map { $0.utf8.lexicographicallyPrecedes(spec.name.utf8) } ?? true }
        return try specs.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }.prefix(limit).map { try Self.summary(of: verified($0)) }
    }

    package func specSummary(name: String) throws -> StoredSpec? {
        try spec(name: name).map(Self.summary(of:))
    }

    /// A spec's stored sections in order, each verified.
    private func specSections(specID: Int64, _ what: String) throws -> [SpecSectionRow] {
        try (tables.specSections[specID]?.rows ?? []).map { row in
            try verify(row.isIntact, "the stored \(what) of section \(row.section) of spec \(specID)")
            return row
        }
    }

    package func sectionBodies(specID: Int64) throws -> [String] {
        try specSections(specID: specID, "body").map(\.body)
    }

    package func sectionBody(specID: Int64, index: Int) throws -> String? {
        guard let row = tables.specSections[specID]?[index] else { return nil }
        try verify(row.isIntact, "the stored body of section \(index) of spec \(specID)")
        return row.body
    }

    package func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun] {
        try (tables.itemRuns[specID] ?? []).filter { section == nil || $0.run.section == section }.map { row in
            try verify(row.isIntact, "the items appended to section \(row.run.section) of spec \(specID)")
            return row.run
        }
    }

    package func lastItemRun(specID: Int64, section: Int) throws -> ItemRun? {
        try itemRuns(specID: specID, section: section).last
    }

    package func sectionIdentities(specID: Int64) throws -> [SectionIdentity] {
        try specSections(specID: specID, "identity").map { SectionIdentity(identity: $0.identity, hash: $0.contentHash) }
    }
}
