import SQLiteToolkit
import TesseraLayout
import TesseraStore

/// A connection reads the store's rows for ``LayoutStore`` in every role
/// (see `ReadSnapshot`): each method is one cached statement.
extension Connection: ReadSnapshot, SpecReads, LayoutReads, SectionReads, CellGroupReads {
    private static let dataVersionSQL = SQL("PRAGMA data_version")

    /// A pooled reader whose snapshot the pool names exactly (see
    /// `Connection.exactSnapshot`) shares resolved names with every reader
    /// of that state; another keeps its own, under its serial and `PRAGMA
    /// data_version` (SQLite changes it for this connection whenever another
    /// connection commits). Word 0 of a WAL stamp holds the index's version
    /// (3007000), never all ones: the two kinds of tag never meet.
    package var resolutionScope: ResolutionScope? {
        get throws {
            guard let reader = attachment as? PooledReader else { return nil }
            if let words = exactSnapshot { return ResolutionScope(tag: SnapshotTag(words: words)) }
            return ResolutionScope(tag: SnapshotTag(.max, reader.serial, UInt64(bitPattern: try dataVersion()), 0, 0, 0))
        }
    }

    /// `PRAGMA data_version`; a pooled reader that kept its snapshot knows
    /// nothing was committed since it last asked, and answers without SQL.
    private func dataVersion() throws -> Int64 {
        if let known = knownChangeCounter { return known }
        let pragma = try cachedStatement(Self.dataVersionSQL)
        guard try pragma.step() else { throw StoreError.damaged(store: path, "PRAGMA data_version returned no row") }
        defer { pragma.reset() }
        let version = pragma.int64(at: 0)
        if remembersChangeCounter { knownChangeCounter = version }
        return version
    }

    // MARK: Specs

    package func specID(name: String) throws -> Int64? {
        let query = try cachedStatement("SELECT id FROM specs WHERE name = ?")
        try query.bind(name)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    package func specRecord(name: String) throws -> SpecRecord? {
        let query = try cachedStatement("SELECT id, body, content_hash, \(ChecksummedColumns.intact(ChecksummedColumns.specs)), section_count FROM specs WHERE name = ?")
        try query.bind(name)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try verify(query, at: 3, "the row of the spec \(name.quotedForMessage)")
        return SpecRecord(id: query.int64(at: 0), header: query.text(at: 1), contentHash: query.text(at: 2), sectionCount: query.int(at: 4))
    }

    private static let specColumns = """
        name, axis, section_count, content_hash, updated_at, \(ChecksummedColumns.intact(ChecksummedColumns.specs)) FROM specs
        """

    private func storedSpec(from query: Statement) throws -> StoredSpec {
        try verify(query, at: 5, "the row of the spec \(query.text(at: 0).quotedForMessage)")
        return StoredSpec(
            name: query.text(at: 0),
            axis: Axis(rawValue: query.text(at: 1)) ?? .vertical,
            sectionCount: query.int(at: 2),
            contentHash: query.text(at: 3),
            updatedAt: query.double(at: 4)
        )
    }

    package func nameConflicts() throws -> [String] {
        let query = try cachedStatement("SELECT name FROM spec_name_conflicts ORDER BY name")
        var names: [String] = []
        while try query.step() { names.append(query.text(at: 0)) }
        return names
    }

    package func specSummaries(after: String?, limit: Int) throws -> [StoredSpec] {
        let query: Statement
        if let after {
            query = try cachedStatement("SELECT \(Self.specColumns) WHERE name > ? ORDER BY name LIMIT ?")
            try query.bind(after, limit)
        } else {
            query = try cachedStatement("SELECT \(Self.specColumns) ORDER BY name LIMIT ?")
            try query.bind(limit)
        }
        var result: [StoredSpec] = []
        while try query.step() { result.append(try storedSpec(from: query)) }
        return result
    }

    package func specSummary(name: String) throws -> StoredSpec? {
        let query = try cachedStatement("SELECT \(Self.specColumns) WHERE name = ?")
        try query.bind(name)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return try storedSpec(from: query)
    }

    private static let sectionIntact = ChecksummedColumns.intact(ChecksummedColumns.specSections)

    package func sectionBodies(specID: Int64) throws -> [String] {
        let query = try cachedStatement("SELECT body, \(Self.sectionIntact), section FROM spec_sections WHERE spec_id = ? ORDER BY section")
        try query.bind(specID)
        var bodies: [String] = []
        while try query.step() {
            try verify(query, at: 1, "the stored body of section \(query.int(at: 2)) of spec \(specID)")
            bodies.append(query.text(at: 0))
        }
        return bodies
    }

    package func sectionBody(specID: Int64, index: Int) throws -> String? {
        let query = try cachedStatement("SELECT body, \(Self.sectionIntact) FROM spec_sections WHERE spec_id = ? AND section = ?")
        try query.bind(specID, index)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try verify(query, at: 1, "the stored body of section \(index) of spec \(specID)")
        return query.text(at: 0)
    }

    package func sectionIdentities(specID: Int64) throws -> [SectionIdentity] {
        let query = try cachedStatement(
            "SELECT identity, content_hash, \(Self.sectionIntact), section FROM spec_sections WHERE spec_id = ? ORDER BY section"
        )
        try query.bind(specID)
        var result: [SectionIdentity] = []
        while try query.step() {
            try verify(query, at: 2, "the stored identity of section \(query.int(at: 3)) of spec \(specID)")
            result.append(SectionIdentity(identity: query.text(at: 0), hash: query.text(at: 1)))
        }
        return result
    }

    package func sectionIdentity(specID: Int64, index: Int) throws -> SectionIdentity? {
        let query = try cachedStatement("SELECT identity, content_hash, \(Self.sectionIntact) FROM spec_sections WHERE spec_id = ? AND section = ?")
        try query.bind(specID, index)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try verify(query, at: 2, "the stored identity of section \(index) of spec \(specID)")
        return SectionIdentity(identity: query.text(at: 0), hash: query.text(at: 1))
    }

    package func specHashPrefix(specID: Int64) throws -> SpecHashPrefix? {
        let query = try cachedStatement("""
            SELECT spec_hash, section_count, state, \(ChecksummedColumns.intact(ChecksummedColumns.specHashPrefixes))
            FROM spec_hash_prefixes WHERE spec_id = ?
            """)
        try query.bind(specID)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try verify(query, at: 3, "the stored hash prefix of spec \(specID)")
        return SpecHashPrefix(specHash: query.text(at: 0), sectionCount: query.int(at: 1), state: query.blob(at: 2))
    }

    private static let itemRunColumns = """
        section, first_item, item_count, items, hash_state, \(ChecksummedColumns.intact(ChecksummedColumns.itemRuns)) FROM spec_item_runs
        """

    private func itemRun(from query: Statement, specID: Int64) throws -> ItemRun {
        try verify(query, at: 5, "the items appended to section \(query.int(at: 0)) of spec \(specID)")
        return ItemRun(
            section: query.int(at: 0), firstItem: query.int(at: 1), itemCount: query.int(at: 2), items: query.text(at: 3), hashState: query.blob(at: 4)
        )
    }

    package func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun] {
        let query = try cachedStatement(section == nil
            ? "SELECT \(Self.itemRunColumns) WHERE spec_id = ?1 ORDER BY section, first_item"
            : "SELECT \(Self.itemRunColumns) WHERE spec_id = ?1 AND section = ?2 ORDER BY first_item")
        try query.bind(specID)
        if let section { try query.bind(section, at: 2) }
        var runs: [ItemRun] = []
        while try query.step() { runs.append(try itemRun(from: query, specID: specID)) }
        return runs
    }

    package func lastItemRun(specID: Int64, section: Int) throws -> ItemRun? {
        let query = try cachedStatement("SELECT \(Self.itemRunColumns) WHERE spec_id = ? AND section = ? ORDER BY first_item DESC LIMIT 1")
        try query.bind(specID, section)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return try itemRun(from: query, specID: specID)
    }

    // MARK: Layouts

    private static let layoutColumns = """
        l.id, s.name, s.axis, l.cross_extent,
        l.status = 'ready' AND l.spec_hash = s.content_hash AND l.engine_version = ?1,
        l.content_length, l.section_count, l.cell_count, l.element_count, l.engine_version, l.compute_seconds,
        l.overhang, l.revision, \(ChecksummedColumns.intact(ChecksummedColumns.layouts, prefix: "l.")), s.name,
        l.directory_summary
        """
    private static let layoutsJoined = "FROM layouts AS l JOIN specs AS s ON s.id = l.spec_id"
    /// By name through the index that holds the spec columns read
    /// (Migrations/0010_spec_names_covering.sql): the spec's row is not read.
    static let resolveSQL = SQL("""
        SELECT \(layoutColumns) FROM layouts AS l JOIN specs AS s INDEXED BY specs_resolve ON s.id = l.spec_id
        WHERE s.name = ?2 AND l.cross_extent = ?3
        """)
    private static let layoutByIDSQL = SQL("SELECT \(layoutColumns) \(layoutsJoined) WHERE l.id = ?2")
    private static let allLayoutsSQL = SQL("SELECT \(layoutColumns) \(layoutsJoined) ORDER BY s.name, l.cross_extent")
    private static let layoutsOfNamesSQL = SQL("SELECT \(layoutColumns) \(layoutsJoined) WHERE s.name <= ?2 ORDER BY s.name, l.cross_extent")
    private static let layoutsOfNamesAfterSQL = SQL(
        "SELECT \(layoutColumns) \(layoutsJoined) WHERE s.name > ?3 AND s.name <= ?2 ORDER BY s.name, l.cross_extent"
    )
    private static let specLayoutsSQL = SQL("SELECT \(layoutColumns) \(layoutsJoined) WHERE l.spec_id = ?2 ORDER BY l.cross_extent")

    private func layoutRecord(from query: Statement) throws -> LayoutRecord {
        try verify(query, at: 13, "the row of the layout of spec \(query.text(at: 14).quotedForMessage) at \(JSONWriter.format(query.double(at: 3)))")
        return LayoutRecord(
            layout: StoredLayout(
                id: query.int64(at: 0),
                specName: query.text(at: 1),
                axis: Axis(rawValue: query.text(at: 2)) ?? .vertical,
                crossExtent: query.double(at: 3),
                state: query.bool(at: 4) ? .fresh : .stale,
                contentLength: query.double(at: 5),
                sectionCount: query.int(at: 6),
                cellCount: query.int(at: 7),
                elementCount: query.int(at: 8),
                engineVersion: query.int(at: 9),
                computeSeconds: query.double(at: 10)
            ),
            overhang: query.double(at: 11),
            revision: query.int64(at: 12),
            directorySummary: query.isNull(at: 15) ? nil : query.blob(at: 15)
        )
    }

    package func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord? {
        let query = try cachedStatement(Self.resolveSQL)
        try query.bind(engineVersion, name, crossExtent)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return try layoutRecord(from: query)
    }

    package func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord? {
        let query = try cachedStatement(Self.layoutByIDSQL)
        try query.bind(engineVersion, id)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return try layoutRecord(from: query)
    }

    package func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord] {
        let query: Statement
        if let specID {
            query = try cachedStatement(Self.specLayoutsSQL)
            try query.bind(engineVersion, specID)
        } else {
            query = try cachedStatement(Self.allLayoutsSQL)
            try query.bind(engineVersion, at: 1)
        }
        var result: [LayoutRecord] = []
        while try query.step() { result.append(try layoutRecord(from: query)) }
        return result
    }

    package func layoutRecords(namesAfter after: String?, through last: String, engineVersion: Int) throws -> [LayoutRecord] {
        let query: Statement
        if let after {
            query = try cachedStatement(Self.layoutsOfNamesAfterSQL)
            try query.bind(engineVersion, last, after)
        } else {
            query = try cachedStatement(Self.layoutsOfNamesSQL)
            try query.bind(engineVersion, last)
        }
        var result: [LayoutRecord] = []
        while try query.step() { result.append(try layoutRecord(from: query)) }
        return result
    }

    package func layoutID(specID: Int64, crossExtent: Double) throws -> Int64? {
        let query = try cachedStatement("SELECT id FROM layouts WHERE spec_id = ? AND cross_extent = ?")
        try query.bind(specID, crossExtent)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    // MARK: Sections

    package func sections(layoutID: Int64) throws -> [SectionRecord] {
        let query = try cachedStatement("SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? ORDER BY section")
        try query.bind(layoutID)
        var result: [SectionRecord] = []
        while try query.step() { result.append(try SectionRow.record(from: query, layoutID: layoutID, connection: self)) }
        return result
    }

    package func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws {
        // The index on end finds where to start; the rows come from the table, in section order.
        let query = try cachedStatement("""
            SELECT \(SectionRow.columns) FROM layout_sections
            WHERE layout_id = ?1 AND section >= coalesce(
                (SELECT section FROM layout_sections WHERE layout_id = ?1 AND end >= ?2 ORDER BY end, section LIMIT 1) - 1,
                (SELECT max(section) FROM layout_sections WHERE layout_id = ?1))
            ORDER BY section
            """)
        try query.bind(layoutID, low)
        defer { query.reset() }
        while try query.step() {
            guard try body(SectionRow.record(from: query, layoutID: layoutID, connection: self)) else { return }
        }
    }

    package func section(layoutID: Int64, index: Int) throws -> SectionRecord? {
        let query = try cachedStatement("SELECT \(SectionRow.columns) FROM layout_sections WHERE layout_id = ? AND section = ?")
        try query.bind(layoutID, index)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return try SectionRow.record(from: query, layoutID: layoutID, connection: self)
    }

    package func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]? {
        let query = try cachedStatement(
            "SELECT placer_state, \(SectionRow.intact), section FROM layout_sections WHERE layout_id = ? AND slot = ?"
        )
        try query.bind(layoutID, slot)
        guard try query.step() else { return nil }
        defer { query.reset() }
        try SectionRow.verify(query, at: 1, section: query.int(at: 2), layoutID: layoutID, connection: self)
        return query.isNull(at: 0) ? nil : query.blob(at: 0)
    }

    package func placerStates(layoutID: Int64) throws -> [Int: [UInt8]] {
        let query = try cachedStatement("""
            SELECT slot, placer_state, \(SectionRow.intact), section FROM layout_sections
            WHERE layout_id = ? AND placer_state IS NOT NULL
            """)
        try query.bind(layoutID)
        var states: [Int: [UInt8]] = [:]
        while try query.step() {
            try SectionRow.verify(query, at: 2, section: query.int(at: 3), layoutID: layoutID, connection: self)
            states[query.int(at: 0)] = query.blob(at: 1)
        }
        return states
    }

    /// Throws `damaged` unless column `index` (a row's checksum test) is 1.
    func verify(_ query: Statement, at index: Int, _ what: @autoclosure () -> String) throws {
        guard query.bool(at: index) else { throw StoreError.damaged(store: path, "\(what()) does not match its checksum") }
    }
}
