import TesseraLayout
import TesseraStoreFormat

/// What ``LayoutStore/check(repair:)`` found.
public struct CheckReport: Sendable, Hashable {
    /// One thing found wrong, and where.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The spec it concerns, if one.
        public var spec: String?
        /// The layout's extent, if it concerns a layout.
        public var crossExtent: Double?
        /// What is wrong.
        public var message: String

        public init(spec: String? = nil, crossExtent: Double? = nil, message: String) {
            self.spec = spec
            self.crossExtent = crossExtent
            self.message = message
        }

        public var description: String {
            var place = spec.map { "spec \($0.quotedForMessage)" } ?? "store"
            if let crossExtent { place += " at \(JSONWriter.format(crossExtent))" }
            return "\(place): \(message)"
        }
    }

    public var specsChecked = 0
    public var layoutsChecked = 0
    public var groupsChecked = 0
    /// Stored rows (and frame blobs) found not to match their checksums.
    public var checksumMismatches = 0
    public var problems: [Problem] = []
    /// The damaged layouts `check(repair: true)` marked stale: each is
    /// computed again from its spec when next used. Damaged specs are
    /// reported, never repaired.
    public var markedStale: [Problem] = []

    /// Whether nothing was found wrong.
    public var isHealthy: Bool { problems.isEmpty }
}

extension LayoutStore {
    /// What ``check(repair:)`` finds, on the store's executor, and the layouts found damaged (by id), which a
    /// repair marks stale; a layout replaced meanwhile is checked as it now is (Architecture.md, "Concurrency").
    /// `package` for a backend's module that checks a copy of its own (an export).
    package func checkAll() async throws -> (report: CheckReport, damaged: [Int64: CheckReport.Problem]) {
        try await onExecutor {
            var report = CheckReport()
            var damaged: [Int64: CheckReport.Problem] = [:]
            report.problems = try await backend.integrityProblems().map { CheckReport.Problem(message: $0) }
            let overview = try await readAsync { storage in try CheckOverview(storage) }
            var mismatches: [DamagedRow: Int] = [:]
            for row in overview.damagedRows {
                report.checksumMismatches += 1
                mismatches[row, default: 0] += 1
                if let id = row.layoutID { damaged[id] = .init(spec: row.spec, crossExtent: row.crossExtent, message: "") }
            }
            for (row, count) in mismatches.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                let message = count == 1 ? "\(row.what) does not match its checksum" : "\(row.what) does not match its checksum (\(count) rows)"
                report.problems.append(.init(spec: row.spec, crossExtent: row.crossExtent, message: message))
            }
            report.problems += Self.nameProblems(overview.specs)
            for spec in overview.specs {
                report.specsChecked += 1
                report.problems += try await readAsync { storage in try self.checkSpec(spec, storage: storage) }
            }
            for listed in overview.layouts {
                let checked = try await readAsync { storage -> (layout: StoredLayout, groups: Int, problems: [String])? in
                    var problems: [String] = []
                    do {
                        guard let record = try storage.layoutRecord(id: listed.id) else { return nil }
                        let groups = try Self.checkLayout(record.layout, storage: storage) { problems.append($0) }
                        if let summary = Self.summaryProblem(of: record, storage: storage) { problems.append(summary) }
                        return (record.layout, groups, problems)
                    } catch let error as StoreError where error.code == .damaged {
                        return (listed, 0, problems + [error.message])
                    }
                }
                guard let checked else { continue }
                report.layoutsChecked += 1
                report.groupsChecked += checked.groups
                let layout = checked.layout
                for message in checked.problems {
                    report.problems.append(.init(spec: layout.specName, crossExtent: layout.crossExtent, message: message))
                    damaged[layout.id] = .init(spec: layout.specName, crossExtent: layout.crossExtent, message: "")
                }
            }
            if let stopped = overview.stopped {
                // A row every listing reads (a spec's or a layout's) is damaged: reported above.
                report.problems.append(.init(message: "the check stopped early: \(stopped)"))
            }
            return (report, damaged)
        }
    }

    /// Checks that a stored spec reads back whole: what is wrong with it.
    private func checkSpec(_ spec: StoredSpec, storage: RowSnapshot) throws -> [CheckReport.Problem] {
        var problems: [CheckReport.Problem] = []
        do {
            guard let loaded = try loadSpec(name: spec.name, storage: storage) else { return [] }
            if loaded.spec.sections.count != spec.sectionCount {
                problems.append(.init(spec: spec.name, message: "has \(loaded.spec.sections.count) sections stored, its row says \(spec.sectionCount)"))
            }
            if try !Self.hashPrefixHolds(name: spec.name, spec: loaded.spec, storage: storage) {
                problems.append(.init(spec: spec.name, message: "what its content hash goes on from is not made of its sections' hashes"))
            }
        } catch let error as StoreError {
            problems.append(.init(spec: spec.name, message: error.message))
        }
        return problems
    }

    /// What the stored frames of `groups` hold, by group id: nil for bytes
    /// that are not frames, no entry for a group without frames. A scan per
    /// 1,000 groups (a statement each over a network).
    private static func storedFrames(
        of groups: [GroupRow], storage: RowSnapshot
    ) throws -> [Int64: (count: Int, bounds: QueryBounds, finite: Bool)?] {
        var found: [Int64: (count: Int, bounds: QueryBounds, finite: Bool)?] = [:]
        let ids = groups.map(\.id).sorted()
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let chunk = Array(ids[start..<min(ids.count, start + 1_000)])
            try storage.visitFrames(chunk) { index, raw in
                guard let view = FrameBlob.View(raw) else { return found[chunk[index]] = .some(nil) }
                var bounds = QueryBounds.empty
                var finite = true
                for offset in 0..<view.count {
                    let frame = view.frame(at: offset)
                    finite = finite && frame.cross.isFinite && frame.scroll.isFinite && frame.crossLength.isFinite
                        && frame.scrollLength.isFinite && frame.crossLength >= 0 && frame.scrollLength >= 0
                    bounds.add(frame)
                }
                found[chunk[index]] = (view.count, bounds, finite)
            }
        }
        return found
    }

    /// Checks one layout's sections and groups; returns the groups checked.
    private static func checkLayout(_ layout: StoredLayout, storage: RowSnapshot, problem: (String) -> Void) throws -> Int {
        let sections = try storage.sections(layoutID: layout.id)
        if sections.count != layout.sectionCount {
            problem("has \(sections.count) section rows, its row says \(layout.sectionCount)")
        }
        for (position, section) in sections.enumerated() where section.geometry.index != position {
            problem("section row \(position) is numbered \(section.geometry.index)")
        }
        var groupsBySlot: [Int: [GroupRow]] = [:]
        try storage.forEachGroup(layoutID: layout.id) { groupsBySlot[$0.slot, default: []].append($0) }
        var checked = 0
        var cells = 0
        for section in sections {
            let index = section.geometry.index
            let groups = groupsBySlot.removeValue(forKey: section.slot) ?? []
            let itemCount = section.geometry.isEmpty ? 0 : section.geometry.itemCount
            cells += itemCount
            let expectedFirsts = Array(stride(from: 0, to: itemCount, by: FrameBlob.framesPerGroup))
            guard groups.map(\.firstItem) == expectedFirsts else {
                problem("section \(index): its cell groups start at items \(groups.map(\.firstItem).prefix(8)), not \(expectedFirsts.prefix(8))")
                continue
            }
            let frames = try storedFrames(of: groups, storage: storage)
            for group in groups {
                checked += 1
                let expected = min(FrameBlob.framesPerGroup, itemCount - group.firstItem)
                let wrong: String? = switch frames[group.id] {
                case nil: "has no frames stored"
                case .some(nil): "holds bytes that are not frames"
                case .some(let found?) where found.count != expected: "holds \(found.count) frames, not \(expected)"
                case .some(let found?) where !found.finite: "holds a frame that is not finite and non-negative"
                case .some(let found?) where found.bounds != group.bounds: "has stored bounds that are not its frames' union"
                default: nil
                }
                if let wrong { problem("section \(index): the cell group of items \(group.firstItem)… \(wrong)") }
            }
        }
        if !groupsBySlot.isEmpty {
            problem("has cell groups of \(groupsBySlot.count) section slots that no section row names")
        }
        if cells != layout.cellCount {
            problem("its sections hold \(cells) cells, its row says \(layout.cellCount)")
        }
        return checked
    }

    /// For the store's check: what is wrong with the directory summary of `record`'s layout, nil when nothing (or
    /// it has none): it must pass what a read checks, and hold exactly what the layout's rows hold (damage in the
    /// rows themselves is the other checks' to report).
    static func summaryProblem(of record: LayoutRecord, storage: RowSnapshot) -> String? {
        guard let summary = record.directorySummary else { return nil }
        let summarized: (sections: [SectionRecord], groups: LayoutGroups)
        do {
            summarized = try DirectorySummary.decode(summary, record: record)
        } catch {
            return "its directory summary \((error as? SummaryDamage)?.reason ?? "cannot be read")"
        }
        guard let rows = try? directoryRows(of: record, storage: storage) else { return nil }
        let sameSections = summarized.sections.count == rows.sections.count
            && zip(summarized.sections, rows.sections).allSatisfy { $0.geometry == $1.geometry && $0.slot == $1.slot }
        // The rows are whole (their first items in order): equal builders hold the same first items.
        guard sameSections, summarized.groups == rows.groups else { return "its directory summary does not hold what its section and cell group rows hold" }
        return nil
    }
}

/// What a check reads first, in one snapshot: every row whose checksum does not hold, and the specs and layouts
/// to check one by one. `stopped` names the damage that kept a listing from being read (the specs' or the
/// layouts'): what it lists is then not checked.
private struct CheckOverview: Sendable {
    var damagedRows: [DamagedRow]
    var specs: [StoredSpec] = []
    var layouts: [StoredLayout] = []
    var stopped: String?

    init(_ storage: RowSnapshot) throws {
        damagedRows = try storage.damagedRows()
        do {
            specs = try storage.specSummaries()
            layouts = try storage.layoutRecords().map(\.layout)
        } catch let error as StoreError where error.code == .damaged {
            stopped = error.message
        }
    }
}
