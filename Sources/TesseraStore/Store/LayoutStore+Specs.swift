import TesseraLayout

#if canImport(Glibc)
import Glibc
#endif

/// Saving and reading specs.
extension LayoutStore {
    /// Saves `spec` under `name` (or its own name) and lays it out at every
    /// extent in `crossExtents` and at every extent already stored for that
    /// name, all in one transaction: if the spec is invalid at any extent,
    /// nothing changes and the previous spec and layouts stay as they were.
    /// A spec already stored is updated incrementally (see
    /// ``update(name:with:)``); layouts still fresh for the saved content are
    /// kept as they are. `progress` hears of every layout computed in full;
    /// it runs inside the write and must not write to the store.
    ///
    /// - Returns: the layouts now stored for the spec.
    @discardableResult
    public func save(
        _ spec: Spec,
        as name: String? = nil,
        crossExtents: [Double] = [],
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> [StoredLayout] {
        try precompute(spec, as: name, crossExtents: crossExtents, progress: progress).layouts
    }

    /// ``save(_:as:crossExtents:progress:)``, also telling what it did to
    /// each layout: kept, shifted, resumed or recomputed sections.
    public func precompute(
        _ spec: Spec,
        as name: String? = nil,
        crossExtents: [Double],
        progress: (@Sendable (PrecomputeProgress) -> Void)? = nil
    ) throws -> (layouts: [StoredLayout], report: UpdateReport) {
        guard let name = name ?? spec.name, !name.isEmpty else {
            throw StoreError.invalidArgument("the spec has no name: give one (a \"name\" in the spec, or a name to save it as)")
        }
        for extent in crossExtents { try LayoutEngine.checkCrossExtent(extent, axis: spec.axis) }
        let stored = spec.resolvingItemFiles()
        let fingerprint = try SpecFingerprint(spec: stored)
        let result: (layouts: [StoredLayout], report: UpdateReport) = try pool.write { connection in
            var report = UpdateReport()
            let specID: Int64
            if let existing = try Self.specID(name: name, connection: connection) {
                report = try applyUpdate(name: name, spec: stored, fingerprint: fingerprint, connection: connection, progress: progress)
                specID = existing
            } else {
                specID = try Self.upsertSpec(stored, name: name, fingerprint: fingerprint, connection: connection)
            }
            let existing = try Self.storedExtents(specID: specID, connection: connection)
            for extent in crossExtents.sorted() where !existing.contains(extent) && !report.layouts.contains(where: { $0.crossExtent == extent }) {
                _ = try computeLayout(
                    spec: stored, name: name, specID: specID, fingerprint: fingerprint,
                    crossExtent: extent, connection: connection, progress: progress
                )
                var entry = UpdateReport.Layout(crossExtent: extent)
                entry.fullRecompute = true
                entry.recomputed = stored.sections.count
                report.layouts.append(entry)
            }
            report.layouts.sort { $0.crossExtent < $1.crossExtent }
            return (try Self.layouts(specID: specID, connection: connection), report)
        }
        checkpoint(afterWriting: result.layouts.reduce(0) { $0 + $1.cellCount })
        return result
    }

    /// The spec stored under `name`, or nil.
    public func spec(named name: String) throws -> Spec? {
        try pool.read { connection in try loadSpec(name: name, connection: connection)?.spec }
    }

    /// Every stored spec, by name.
    public func specs() throws -> [StoredSpec] {
        try pool.read { connection in
            let query = try connection.cachedStatement(
                "SELECT name, axis, section_count, content_hash, updated_at FROM specs ORDER BY name"
            )
            var result: [StoredSpec] = []
            while try query.step() {
                result.append(StoredSpec(
                    name: query.text(at: 0),
                    axis: Axis(rawValue: query.text(at: 1)) ?? .vertical,
                    sectionCount: query.int(at: 2),
                    contentHash: query.text(at: 3),
                    updatedAt: query.double(at: 4)
                ))
            }
            return result
        }
    }

    /// Deletes a spec and all its layouts. Returns whether it existed.
    @discardableResult
    public func deleteSpec(named name: String) throws -> Bool {
        try pool.write { connection in
            guard let specID = try Self.specID(name: name, connection: connection) else { return false }
            for layout in try Self.layouts(specID: specID, connection: connection) {
                try Self.deleteLayout(id: layout.id, connection: connection)
            }
            let delete = try connection.cachedStatement("DELETE FROM specs WHERE id = ?")
            try delete.bind(specID)
            try delete.execute()
            return true
        }
    }

    // MARK: - Rows

    static func specID(name: String, connection: Connection) throws -> Int64? {
        let query = try connection.cachedStatement("SELECT id FROM specs WHERE name = ?")
        try query.bind(name)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return query.int64(at: 0)
    }

    /// Inserts or replaces the spec row and its sections' rows. With the
    /// previous sections' hashes, only the rows of changed sections are
    /// written.
    static func upsertSpec(
        _ spec: Spec,
        name: String,
        fingerprint: SpecFingerprint,
        connection: Connection,
        previous: [(identity: String, hash: String)]? = nil
    ) throws -> Int64 {
        var header = spec
        header.sections = []
        var headerJSON = header.jsonValue
        if case .object(var object) = headerJSON {
            object["name"] = .string(name)
            object["sections"] = nil
            headerJSON = .object(object)
        }
        let body = JSONWriter.canonical(headerJSON)
        let now = LayoutStore.timestamp()
        let specID: Int64
        if let existing = try Self.specID(name: name, connection: connection) {
            let update = try connection.cachedStatement(
                "UPDATE specs SET body = ?, content_hash = ?, axis = ?, section_count = ?, updated_at = ? WHERE id = ?"
            )
            try update.bind(body, fingerprint.specHash, spec.axis.rawValue, spec.sections.count, now, existing)
            try update.execute()
            specID = existing
        } else {
            let insert = try connection.cachedStatement("""
                INSERT INTO specs (name, body, content_hash, axis, section_count, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
            try insert.bind(name, body, fingerprint.specHash, spec.axis.rawValue, spec.sections.count, now, now)
            try insert.execute()
            specID = connection.lastInsertRowID
        }
        if previous?.count != spec.sections.count {
            let clear = try connection.cachedStatement("DELETE FROM spec_sections WHERE spec_id = ?")
            try clear.bind(specID)
            try clear.execute()
        }
        let write = try connection.cachedStatement(
            "INSERT OR REPLACE INTO spec_sections (spec_id, section, identity, content_hash, body) VALUES (?, ?, ?, ?, ?)"
        )
        for (index, section) in spec.sections.enumerated() {
            let identity = fingerprint.sectionIdentities[index]
            let hash = fingerprint.sectionHashes[index]
            if let previous, previous.count == spec.sections.count, previous[index].identity == identity, previous[index].hash == hash {
                continue
            }
            try write.bind(specID, index, identity, hash, JSONWriter.canonical(section.jsonValue))
            try write.execute()
        }
        return specID
    }

    struct LoadedSpec {
        var id: Int64
        var spec: Spec
        var contentHash: String
    }

    /// The stored spec's row: id, header JSON and content hash.
    static func specRow(name: String, connection: Connection) throws -> (id: Int64, header: JSONValue, contentHash: String)? {
        let query = try connection.cachedStatement("SELECT id, body, content_hash FROM specs WHERE name = ?")
        try query.bind(name)
        guard try query.step() else { return nil }
        defer { query.reset() }
        return (query.int64(at: 0), try Self.parseStored(query.text(at: 1), name: name), query.text(at: 2))
    }

    static func parseStored(_ text: String, name: String) throws -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw StoreError.invalidArgument("the stored spec \"\(name)\" is damaged: \(error)")
        }
    }

    func loadSpec(name: String, connection: Connection) throws -> LoadedSpec? {
        guard let row = try Self.specRow(name: name, connection: connection), case .object(var header) = row.header else { return nil }
        let sections = try connection.cachedStatement("SELECT body FROM spec_sections WHERE spec_id = ? ORDER BY section")
        try sections.bind(row.id)
        var bodies: [JSONValue] = []
        while try sections.step() { bodies.append(try Self.parseStored(sections.text(at: 0), name: name)) }
        header["sections"] = .array(bodies)
        do {
            return LoadedSpec(id: row.id, spec: try Spec(json: .object(header), registry: registry), contentHash: row.contentHash)
        } catch let error as SpecError {
            throw StoreError.invalidArgument("the stored spec \"\(name)\" cannot be read by this program: \(error)")
        }
    }

    static func storedExtents(specID: Int64, connection: Connection) throws -> [Double] {
        let query = try connection.cachedStatement("SELECT cross_extent FROM layouts WHERE spec_id = ? ORDER BY cross_extent")
        try query.bind(specID)
        var extents: [Double] = []
        while try query.step() { extents.append(query.double(at: 0)) }
        return extents
    }
}

extension Spec {
    /// This spec with every items file named by its resolved path, so that a
    /// stored spec reads the same files wherever it is loaded from.
    func resolvingItemFiles() -> Spec {
        var copy = self
        for index in copy.sections.indices {
            copy.sections[index].items = copy.sections[index].items.renamingFiles { resolved in
                realpath(resolved, nil).map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                } ?? resolved
            }
        }
        return copy
    }
}
