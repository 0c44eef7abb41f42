import PostgresNIO
import TesseraLayout
import TesseraStore

/// A session reads the store's rows for ``LayoutStore`` in every role (see
/// `ReadSnapshot`), inside the snapshot of the storage's read or write.
extension PostgresSession: ReadSnapshot, SpecReads, LayoutReads, SectionReads, CellGroupReads {
    /// The test of a row's checksum, for the table aliased `alias`.
    static func intact(_ alias: String) -> String { "(\(alias).checksum = tessera_checksum(\(alias)))" }

    /// With a change listener (`freshness=notified`), resolved names are
    /// kept under the count of commits it heard of. A read's first attempt
    /// then answers only from what was resolved under that count (taking it
    /// counts as the read's one statement); any other statement makes it run
    /// again in one snapshot, which resolves its layouts anew and keeps them
    /// (within a transaction a layout resolved under the same count may be
    /// older than the snapshot, whose other rows must match it).
    ///
    /// Without one, nothing tells a session cheaply that another machine
    /// committed: every read resolves its layouts in its own snapshot.
    var resolutionScope: ResolutionScope? {
        guard let epoch = changeListener?.epoch else { return nil }
        if singleStatementRead { statementsInRead = max(statementsInRead, 1) }
        return ResolutionScope(tag: SnapshotTag(UInt64(bitPattern: epoch), 0, 0, 0, 0, 0), reuse: singleStatementRead)
    }

    // MARK: Specs

    func specID(name: String) throws -> Int64? {
        try lockSpecIfWriting(name)
        return try scalarInt64("SELECT id FROM specs WHERE name = $1", .of(name))
    }

    func specRecord(name: String) throws -> SpecRecord? {
        try lockSpecIfWriting(name)
        guard let columns = try rows(
            "SELECT id, body, content_hash, \(Self.intact("s")), section_count FROM specs AS s WHERE name = $1", .of(name)
        ).first else { return nil }
        try columns.verify(3, "the row of the spec \(name.quotedForMessage)")
        return SpecRecord(id: try columns.int64(0), header: try columns.text(1), contentHash: try columns.text(2), sectionCount: try columns.int(4))
    }

    private static let specColumns = "name, axis, section_count, content_hash, updated_at, \(intact("s")) FROM specs AS s"

    private func storedSpec(_ columns: RowColumns) throws -> StoredSpec {
        try columns.verify(5, "the row of the spec \(try columns.text(0).quotedForMessage)")
        return StoredSpec(
            name: try columns.text(0),
            axis: Axis(rawValue: try columns.text(1)) ?? .vertical,
            sectionCount: try columns.int(2),
            contentHash: try columns.text(3),
            updatedAt: try columns.double(4)
        )
    }

    func nameConflicts() throws -> [String] {
        try rows("SELECT name FROM spec_name_conflicts ORDER BY name").map { try $0.text(0) }
    }

    func specSummaries(after: String?, limit: Int) throws -> [StoredSpec] {
        // The name column's collation is "C": its order is the byte order of the UTF-8, as SQLite's.
        let result = if let after {
            try rows("SELECT \(Self.specColumns) WHERE name > $1 ORDER BY name LIMIT $2", .of(after, limit))
        } else {
            try rows("SELECT \(Self.specColumns) ORDER BY name LIMIT $1", .of(limit))
        }
        return try result.map(storedSpec)
    }

    func specSummary(name: String) throws -> StoredSpec? {
        try lockSpecIfWriting(name)
        return try rows("SELECT \(Self.specColumns) WHERE name = $1", .of(name)).first.map(storedSpec)
    }

    func sectionBodies(specID: Int64) throws -> [String] {
        try rows(
            "SELECT body, \(Self.intact("t")), section FROM spec_sections AS t WHERE spec_id = $1 ORDER BY section", .of(specID)
        ).map { columns in
            try columns.verify(1, "the stored body of section \(try columns.int(2)) of spec \(specID)")
            return try columns.text(0)
        }
    }

    func sectionBody(specID: Int64, index: Int) throws -> String? {
        try rows(
            "SELECT body, \(Self.intact("t")) FROM spec_sections AS t WHERE spec_id = $1 AND section = $2", .of(specID, index)
        ).first.map { columns in
            try columns.verify(1, "the stored body of section \(index) of spec \(specID)")
            return try columns.text(0)
        }
    }

    func sectionIdentities(specID: Int64) throws -> [SectionIdentity] {
        try rows(
            "SELECT identity, content_hash, \(Self.intact("t")), section FROM spec_sections AS t WHERE spec_id = $1 ORDER BY section",
            .of(specID)
        ).map { columns in
            try columns.verify(2, "the stored identity of section \(try columns.int(3)) of spec \(specID)")
            return SectionIdentity(identity: try columns.text(0), hash: try columns.text(1))
        }
    }

    private static let itemRunColumns = "section, first_item, item_count, items, hash_state, \(intact("t")) FROM spec_item_runs AS t"

    private func itemRun(_ columns: RowColumns, specID: Int64) throws -> ItemRun {
        try columns.verify(5, "the items appended to section \(try columns.int(0)) of spec \(specID)")
        return ItemRun(
            section: try columns.int(0), firstItem: try columns.int(1), itemCount: try columns.int(2), items: try columns.text(3),
            hashState: columns.byteArray(4) ?? []
        )
    }

    func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun] {
        let found = if let section {
            try rows("SELECT \(Self.itemRunColumns) WHERE spec_id = $1 AND section = $2 ORDER BY first_item", .of(specID, section))
        } else {
            try rows("SELECT \(Self.itemRunColumns) WHERE spec_id = $1 ORDER BY section, first_item", .of(specID))
        }
        return try found.map { try itemRun($0, specID: specID) }
    }

    func lastItemRun(specID: Int64, section: Int) throws -> ItemRun? {
        try rows(
            "SELECT \(Self.itemRunColumns) WHERE spec_id = $1 AND section = $2 ORDER BY first_item DESC LIMIT 1", .of(specID, section)
        ).first.map { try itemRun($0, specID: specID) }
    }

    // MARK: Layouts

    private static let layoutColumns = """
        l.id, s.name, s.axis, l.cross_extent,
        l.status = 'ready' AND l.spec_hash = s.content_hash AND l.engine_version = $1,
        l.content_length, l.section_count, l.cell_count, l.element_count, l.engine_version, l.compute_seconds,
        l.overhang, l.revision, \(intact("l")), l.directory_summary
        FROM layouts AS l JOIN specs AS s ON s.id = l.spec_id
        """

    private func layoutRecord(_ columns: RowColumns) throws -> LayoutRecord {
        try columns.verify(13, "the row of the layout of spec \(try columns.text(1).quotedForMessage) at \(JSONWriter.format(try columns.double(3)))")
        return LayoutRecord(
            layout: StoredLayout(
                id: try columns.int64(0),
                specName: try columns.text(1),
                axis: Axis(rawValue: try columns.text(2)) ?? .vertical,
                crossExtent: try columns.double(3),
                state: try columns.bool(4) ? .fresh : .stale,
                contentLength: try columns.double(5),
                sectionCount: try columns.int(6),
                cellCount: try columns.int(7),
                elementCount: try columns.int(8),
                engineVersion: try columns.int(9),
                computeSeconds: try columns.double(10)
            ),
            overhang: try columns.double(11),
            revision: try columns.int64(12),
            directorySummary: columns.byteArray(14)
        )
    }

    private static let layoutByNameSQL = """
        SELECT \(layoutColumns.replacingOccurrences(of: "$1", with: "$1::int8"))
        WHERE s.name = $2::text AND l.cross_extent = $3::float8
        """

    func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord? {
        try lockSpecIfWriting(name)
        // The first statement of every query: prepared.
        return try preparedRows(
            Self.layoutByNameSQL, [PostgresData(int: engineVersion), PostgresData(string: name), PostgresData(double: crossExtent)]
        ).first.map(layoutRecord)
    }

    func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord? {
        try rows("SELECT \(Self.layoutColumns) WHERE l.id = $2", .of(engineVersion, id)).first.map(layoutRecord)
    }

    func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord] {
        let result = if let specID {
            try rows("SELECT \(Self.layoutColumns) WHERE l.spec_id = $2 ORDER BY l.cross_extent", .of(engineVersion, specID))
        } else {
            try rows("SELECT \(Self.layoutColumns) ORDER BY s.name, l.cross_extent", .of(engineVersion))
        }
        return try result.map(layoutRecord)
    }

    func layoutRecords(namesAfter after: String?, through last: String, engineVersion: Int) throws -> [LayoutRecord] {
        let result = if let after {
            try rows(
                "SELECT \(Self.layoutColumns) WHERE s.name > $3 AND s.name <= $2 ORDER BY s.name, l.cross_extent",
                .of(engineVersion, last, after)
            )
        } else {
            try rows("SELECT \(Self.layoutColumns) WHERE s.name <= $2 ORDER BY s.name, l.cross_extent", .of(engineVersion, last))
        }
        return try result.map(layoutRecord)
    }

    func layoutID(specID: Int64, crossExtent: Double) throws -> Int64? {
        try scalarInt64("SELECT id FROM layouts WHERE spec_id = $1 AND cross_extent = $2", .of(specID, crossExtent))
    }

    // MARK: Sections

    func sections(layoutID: Int64) throws -> [SectionRecord] {
        try rows("SELECT \(SectionColumns.select) FROM layout_sections AS t WHERE layout_id = $1 ORDER BY section", .of(layoutID))
            .map { try SectionColumns.record($0, layoutID: layoutID) }
    }

    func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws {
        // The index on scroll_end finds where to start; the rows come in
        // section order, in pages: a query stops after the first past its rect.
        var next: Int64?
        while true {
            let page = if let next {
                try rows("""
                    SELECT \(SectionColumns.select) FROM layout_sections AS t
                    WHERE layout_id = $1 AND section >= $2 ORDER BY section LIMIT 64
                    """, .of(layoutID, next))
            } else {
                try rows("""
                    SELECT \(SectionColumns.select) FROM layout_sections AS t
                    WHERE layout_id = $1 AND section >= coalesce(
                        (SELECT section FROM layout_sections WHERE layout_id = $1 AND scroll_end >= $2 ORDER BY scroll_end, section LIMIT 1) - 1,
                        (SELECT max(section) FROM layout_sections WHERE layout_id = $1))
                    ORDER BY section LIMIT 64
                    """, .of(layoutID, low))
            }
            for columns in page {
                let record = try SectionColumns.record(columns, layoutID: layoutID)
                guard try body(record) else { return }
                next = Int64(record.geometry.index) + 1
            }
            if page.count < 64 { return }
        }
    }

    func section(layoutID: Int64, index: Int) throws -> SectionRecord? {
        try rows("SELECT \(SectionColumns.select) FROM layout_sections AS t WHERE layout_id = $1 AND section = $2", .of(layoutID, index)).first.map { try SectionColumns.record($0, layoutID: layoutID) }
    }

    func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]? {
        guard let columns = try rows(
            "SELECT placer_state, \(Self.intact("t")), section FROM layout_sections AS t WHERE layout_id = $1 AND slot = $2",
            .of(layoutID, slot)
        ).first else { return nil }
        try columns.verify(1, "the row of section \(try columns.int(2)) of layout \(layoutID)")
        return columns.byteArray(0)
    }

    func placerStates(layoutID: Int64) throws -> [Int: [UInt8]] {
        var states: [Int: [UInt8]] = [:]
        for columns in try rows("""
            SELECT slot, placer_state, \(Self.intact("t")), section FROM layout_sections AS t
            WHERE layout_id = $1 AND placer_state IS NOT NULL
            """, .of(layoutID)) {
            try columns.verify(2, "the row of section \(try columns.int(3)) of layout \(layoutID)")
            states[try columns.int(0)] = columns.byteArray(1)
        }
        return states
    }
}

/// The `layout_sections` columns a read selects, and the record they make.
enum SectionColumns {
    /// The columns, for the table aliased `t`; the last is the checksum test.
    static let select = """
        section, scroll_start, item_count, items_extent, cell_span_low, cell_span_high, header_size, header_pinned,
        footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset, slot,
        \(PostgresSession.intact("t")), orthogonal_content_length
        """

    static func record(_ columns: RowColumns, layoutID: Int64) throws -> SectionRecord {
        try columns.verify(15, "the row of section \(try columns.int(0)) of layout \(layoutID)")
        let spanLow = try columns.optionalDouble(4)
        let spanHigh = try columns.optionalDouble(5)
        let geometry = SectionGeometry(
            index: try columns.int(0),
            start: try columns.double(1),
            header: try columns.optionalDouble(6).map { Supplementary(size: $0, pinned: try columns.bool(7)) },
            footer: try columns.optionalDouble(8).map { Supplementary(size: $0, pinned: try columns.bool(9)) },
            background: try columns.bool(10),
            scrollStartInset: try columns.double(11),
            scrollEndInset: try columns.double(12),
            crossStartInset: try columns.double(13),
            itemCount: try columns.int(2),
            itemsExtent: try columns.double(3),
            cellSpan: spanLow.flatMap { low in spanHigh.map { low...$0 } },
            orthogonalContentLength: try columns.optionalDouble(16)
        )
        return SectionRecord(geometry: geometry, slot: try columns.int(14))
    }
}
