import TesseraLayout
import TesseraStore
import TesseraStoreFormat

/// What a merge (``TesseraStore/LayoutStore/merge(from:replacing:progress:)``) did.
public struct MergeReport: Sendable, Hashable {
    /// Specs the store did not hold, copied with their layouts.
    public var specsAdded = 0
    /// Specs the store held with other content, replaced (only when replacing).
    public var specsReplaced = 0
    /// Specs the store held with the same content (from an earlier source,
    /// or from before): taken once, with the layouts of widths it lacked.
    public var specsAlreadyStored = 0
    /// Layouts copied.
    public var layoutsCopied = 0
    /// Cell groups copied, each a row of frames.
    public var groupsCopied = 0
    /// Bytes of frames copied.
    public var frameBytes = 0

    public init() {}
}

/// How far a merge has got, reported after each spec it copied or took once.
public struct MergeProgress: Sendable, Hashable {
    /// Specs of every source done so far.
    public var specsDone: Int
    /// Specs of every source, in all.
    public var specsTotal: Int
}

extension LayoutStore {
    /// Copies every spec of `sources`, with its layouts, into this store,
    /// in one write transaction, laying out nothing again: the stores a
    /// fleet's shards wrote (`precompute --shard I/N`), merged into one.
    ///
    /// - Every row read from a source is checked against its checksums
    ///   first; a damaged one fails the merge (code `damaged`, naming the
    ///   source).
    /// - All or nothing: when the merge fails or is cancelled, this store is
    ///   as it was (a process killed during it leaves it so too).
    /// - A spec held under the same name with the same content (by this
    ///   store, or by an earlier source) is taken once; the layouts of the
    ///   widths the held one lacks are copied.
    /// - A spec held under the same name with other content fails the merge
    ///   (code `conflict`), unless `replacing`: the later one then replaces
    ///   it, layouts and all.
    /// - The sources must not be written while the merge reads them.
    ///
    /// `progress` hears of every spec done; it must not write to the store.
    ///
    /// - Throws: `StoreError`: `invalidArgument` when a source is this
    ///   store, `conflict`, `damaged`, `cancelled`, and what a write throws.
    public func merge(
        from sources: [LayoutStore], replacing: Bool = false, progress: (@Sendable (MergeProgress) -> Void)? = nil
    ) async throws -> MergeReport {
        for source in sources where source === self || source.location == location {
            throw StoreError(.invalidArgument, "the store \(location.quotedPathForMessage) cannot be merged into itself", store: location)
        }
        var names: [[String]] = []
        for source in sources { names.append(try await source.mergedNames()) }
        let lists = names
        return try await gatedWrite { flag in
            try await onExecutor {
                try await write { storage in
                    var report = MergeReport()
                    var done = MergeProgress(specsDone: 0, specsTotal: lists.reduce(0) { $0 + $1.count })
                    for (source, names) in zip(sources, lists) {
                        for name in names {
                            try flag.check()
                            guard let spec = try await source.readAsync({ try $0.mergedSpec(name: name) }) else { continue }
                            try await source.copy(spec, into: storage, replacing: replacing, report: &report)
                            done.specsDone += 1
                            progress?(done)
                        }
                    }
                    return report
                }
            }
        }
    }

    /// The names of this store's specs, for a merge: refused when it holds
    /// two specs under one name.
    private func mergedNames() async throws -> [String] {
        let (names, conflicts) = try await readAsync { snapshot in (try snapshot.specSummaries().map(\.name), try snapshot.nameConflicts()) }
        if let name = conflicts.first {
            throw StoreError(
                .damaged, "the store \(location.quotedPathForMessage) holds more than one spec named \(name.quotedForMessage): "
                    + "open it with tessera to keep one, then merge it", store: location, spec: name
            )
        }
        return names
    }

    private func copy(_ spec: MergedSpec, into storage: RowTransaction, replacing: Bool, report: inout MergeReport) async throws {
        let name = spec.row.name
        if let held = try await storage.read({ try $0.mergedSpecRow(name: name) }) {
            guard held.row.contentHash == spec.row.contentHash, held.row.axis == spec.row.axis else {
                guard replacing else {
                    throw StoreError(
                        .conflict, "the spec \(name.quotedForMessage) of \(location.quotedPathForMessage) differs from the one "
                            + "already merged or stored under that name; nothing was merged (replace it to keep the later)", spec: name
                    )
                }
                try await storage.deleteSpec(id: held.row.id)
                report.specsReplaced += 1
                return try await insert(spec, into: storage, report: &report)
            }
            report.specsAlreadyStored += 1
            for layout in spec.layouts where !held.extents.contains(layout.row.crossExtent) {
                try await copy(layout, specID: held.row.id, into: storage, report: &report)
            }
            return
        }
        report.specsAdded += 1
        try await insert(spec, into: storage, report: &report)
    }

    private func insert(_ spec: MergedSpec, into storage: RowTransaction, report: inout MergeReport) async throws {
        let specID = try await storage.insertSpec(spec.row)
        try await storage.copyRows(of: spec, specID: specID)
        for layout in spec.layouts { try await copy(layout, specID: specID, into: storage, report: &report) }
    }

    /// Copies a layout's row, sections and groups (read from this store in
    /// chunks), then writes its directory summary as a new layout's.
    private func copy(_ layout: MergedLayout, specID: Int64, into storage: RowTransaction, report: inout MergeReport) async throws {
        let row = layout.row
        let id = try await storage.insertLayout(LayoutRow(
            specID: specID, crossExtent: row.crossExtent, engineVersion: row.engineVersion, specHash: row.specHash, totals: row.totals,
            computeSeconds: row.computeSeconds, updatedAt: row.updatedAt
        ))
        let recorder = DirectoryRecorder(storage)
        for section in layout.sections {
            try recorder.writeSection(layoutID: id, section.record, placerState: section.placerState)
            var after: Int?
            // Made again from the bounds, in order: rows written before groups kept theirs have none.
            var reach: GroupReach?
            while true {
                let groups = try await readAsync { [after] in
                    try $0.mergedGroups(layoutID: row.id, slot: section.record.slot, after: after, limit: Self.mergeChunk)
                }
                for group in groups {
                    guard let frames = group.frames else { throw StoreError(.internal, "a verified group had no frames", store: location) }
                    let next = reach?.next(group.bounds) ?? GroupReach(first: group.bounds)
                    reach = next
                    _ = try frames.withUnsafeBytes { raw in
                        try recorder.writeGroup(layoutID: id, slot: group.slot, firstItem: group.firstItem, frames: raw, bounds: group.bounds, reach: next)
                    }
                    report.frameBytes += frames.count
                }
                report.groupsCopied += groups.count
                guard groups.count == Self.mergeChunk, let last = groups.last else { break }
                after = last.firstItem
            }
        }
        try await Self.writeNewLayoutSummary(layoutID: id, sectionCount: row.totals.sectionCount, recorded: recorder, storage: storage)
        if row.status != "ready" { try await storage.markStale(layoutID: id, updatedAt: row.updatedAt) }
        report.layoutsCopied += 1
    }

    /// Groups read from a source in one read, at most.
    static let mergeChunk = 1_000
}

/// A spec as a merge copies it: its rows, verified, and its layouts'.
struct MergedSpec: Sendable {
    var row: SpecRow
    var sections: [SpecSectionRow]
    var itemRuns: [ItemRunRow]
    var hashPrefix: SpecHashPrefixRow?
    var layouts: [MergedLayout]
}

struct MergedLayout: Sendable {
    var row: LayoutRow
    var sections: [SectionRow]
}

extension RowSnapshot {
    /// The spec row named `name` and the extents of its layouts, verified.
    fileprivate func mergedSpecRow(name: String) throws -> (row: SpecRow, extents: Set<Double>)? {
        guard let row = try spec(name: name) else { return nil }
        return (row, Set(try layoutRows(specID: row.id).map(\.crossExtent)))
    }

    /// Every row of the spec named `name` but its groups, each verified.
    fileprivate func mergedSpec(name: String) throws -> MergedSpec? {
        guard let row = try spec(name: name) else { return nil }
        let key = RowRange.key(.integer(row.id))
        let spec = "spec \(name.quotedForMessage)"
        return MergedSpec(
            row: row,
            sections: try all(SpecSectionRow.self, key).map { try intact($0, "the stored section \($0.section) of \(spec)") },
            itemRuns: try all(ItemRunRow.self, key).map { try intact($0, "the items appended to \(spec)") },
            hashPrefix: try first(SpecHashPrefixRow.self, key).map { try intact($0, "the stored hash prefix of \(spec)") },
            layouts: try layoutRows(specID: row.id).map { layout in
                let sections = try all(SectionRow.self, .key(.integer(layout.id))).map {
                    try intact($0, "section \($0.key) of the layout of \(spec) at \(JSONWriter.format(layout.crossExtent))")
                }
                return MergedLayout(row: layout, sections: sections)
            }
        )
    }

    private func layoutRows(specID: Int64) throws -> [LayoutRow] {
        try all(LayoutRow.self, .key(.integer(specID), index: 1)).map { try intact($0, "the row of layout \($0.id)") }
    }

    /// At most `limit` groups of a layout's slot after first item `after`,
    /// with their frames, every checksum verified.
    fileprivate func mergedGroups(layoutID: Int64, slot: Int, after: Int?, limit: Int) throws -> [GroupRow] {
        let range = RowRange([.integer(layoutID), .init(slot)], lower: after.map { .init(.init($0), inclusive: false) }, limit: limit)
        return try all(GroupRow.self, range).map { group in
            try verify(
                group.directoryIsIntact && group.reachIsIntact && group.framesAreIntact,
                "the cell group of layout \(layoutID), slot \(slot), first item \(group.firstItem)"
            )
            return group
        }
    }

    private func intact<T: TableRow>(_ row: T, _ what: @autoclosure () -> String) throws -> T {
        try verify(row.isIntact, what())
        return row
    }
}

extension RowTransaction {
    /// Writes the rows of `spec` that belong to the spec itself under `specID`, sealed anew.
    fileprivate func copyRows(of spec: MergedSpec, specID: Int64) async throws {
        try await writer.answering {
            for var section in spec.sections {
                section.specID = specID
                try put(section)
            }
            for var run in spec.itemRuns {
                run.specID = specID
                try put(run)
            }
            if var prefix = spec.hashPrefix {
                prefix.specID = specID
                try put(prefix)
            }
        }
    }
}
