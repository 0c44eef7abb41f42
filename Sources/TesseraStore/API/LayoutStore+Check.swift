import TesseraLayout

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
    /// What ``check(repair:)`` finds, read in one snapshot on the calling
    /// thread, and the layouts found damaged (by id), which a repair marks
    /// stale. `package` for a backend's module that checks a copy of its
    /// own (an export).
    package func checkAll() throws -> (report: CheckReport, damaged: [Int64: CheckReport.Problem]) {
        let backendProblems = try backend.integrityProblems()
        var damaged: [Int64: CheckReport.Problem] = [:]
        let report = try read { storage in
            var report = CheckReport()
            report.problems = backendProblems.map { CheckReport.Problem(message: $0) }
            var mismatches: [DamagedRow: Int] = [:]
            for row in try storage.damagedRows() {
                report.checksumMismatches += 1
                mismatches[row, default: 0] += 1
                if let id = row.layoutID { damaged[id] = .init(spec: row.spec, crossExtent: row.crossExtent, message: "") }
            }
            for (row, count) in mismatches.sorted(by: { "\($0.key)" < "\($1.key)" }) {
                let message = count == 1 ? "\(row.what) does not match its checksum" : "\(row.what) does not match its checksum (\(count) rows)"
                report.problems.append(.init(spec: row.spec, crossExtent: row.crossExtent, message: message))
            }
            do {
                let specs = try storage.specSummaries()
                report.problems += Self.nameProblems(specs)
                for spec in specs {
                    report.specsChecked += 1
                    try checkSpec(spec, storage: storage) { report.problems.append($0) }
                }
                for record in try storage.layoutRecords(specID: nil, engineVersion: LayoutEngine.version) {
                    report.layoutsChecked += 1
                    let layout = record.layout
                    let place = CheckReport.Problem(spec: layout.specName, crossExtent: layout.crossExtent, message: "")
                    func problem(_ message: String) {
                        report.problems.append(.init(spec: layout.specName, crossExtent: layout.crossExtent, message: message))
                        damaged[layout.id] = place
                    }
                    do {
                        report.groupsChecked += try Self.checkLayout(layout, storage: storage, problem: problem)
                        if let summary = Self.summaryProblem(of: record, storage: storage, location: location) { problem(summary) }
                    } catch let error as StoreError where error.code == .damaged {
                        problem(error.message)
                    }
                }
            } catch let error as StoreError where error.code == .damaged {
                // A row every listing reads (a spec's or a layout's) is damaged: reported above.
                report.problems.append(.init(message: "the check stopped early: \(error.message)"))
            }
            return report
        }
        return (report, damaged)
    }

    /// Checks that a stored spec reads back whole.
    private func checkSpec(_ spec: StoredSpec, storage: RowSnapshot, problem: (CheckReport.Problem) -> Void) throws {
        do {
            guard let loaded = try loadSpec(name: spec.name, storage: storage) else { return }
            if loaded.spec.sections.count != spec.sectionCount {
                problem(.init(spec: spec.name, message: "has \(loaded.spec.sections.count) sections stored, its row says \(spec.sectionCount)"))
            }
            if try !Self.hashPrefixHolds(name: spec.name, spec: loaded.spec, storage: storage) {
                problem(.init(spec: spec.name, message: "what its content hash goes on from is not made of its sections' hashes"))
            }
        } catch let error as StoreError {
            problem(.init(spec: spec.name, message: error.message))
        }
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
        var groupsBySlot: [Int: [GroupRecord]] = [:]
        try storage.forEachGroup(layoutID: layout.id) { groupsBySlot[$0.slot, default: []].append($0) }
        var checked = 0
        var cells = 0
        for section in sections {
            let index = section.geometry.index
            let groups = groupsBySlot.removeValue(forKey: section.slot) ?? []
            let itemCount = section.geometry.isEmpty ? 0 : section.geometry.itemCount
            cells += itemCount
            let expectedFirsts = SectionGroups.expectedFirstItems(itemCount: itemCount)
            guard groups.map(\.firstItem) == expectedFirsts else {
                problem("section \(index): its cell groups start at items \(groups.map(\.firstItem).prefix(8)), not \(expectedFirsts.prefix(8))")
                continue
            }
            for group in groups {
                checked += 1
                let expected = min(FrameBlob.framesPerGroup, itemCount - group.firstItem)
                var found: (count: Int, bounds: QueryBounds, finite: Bool)??
                try storage.visitStoredFrames(groupID: group.id) { raw in
                    guard let view = FrameBlob.View(raw) else { return found = .some(nil) }
                    var bounds = QueryBounds.empty
                    var finite = true
                    for offset in 0..<view.count {
                        let frame = view.frame(at: offset)
                        finite = finite && frame.cross.isFinite && frame.scroll.isFinite && frame.crossLength.isFinite
                            && frame.scrollLength.isFinite && frame.crossLength >= 0 && frame.scrollLength >= 0
                        bounds.add(frame)
                    }
                    found = (view.count, bounds, finite)
                }
                guard let stored = found else {
                    problem("section \(index): the cell group of items \(group.firstItem)… has no frames stored")
                    continue
                }
                guard let found = stored else {
                    problem("section \(index): the cell group of items \(group.firstItem)… holds bytes that are not frames")
                    continue
                }
                if found.count != expected {
                    problem("section \(index): the cell group of items \(group.firstItem)… holds \(found.count) frames, not \(expected)")
                } else if !found.finite {
                    problem("section \(index): the cell group of items \(group.firstItem)… holds a frame that is not finite and non-negative")
                } else if found.bounds != group.bounds {
                    problem("section \(index): the cell group of items \(group.firstItem)… has stored bounds that are not its frames' union")
                }
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
}

extension LayoutStore {
    /// For the store's check: what is wrong with the directory summary
    /// of `record`'s layout, nil when nothing (or it has none): it must
    /// pass what a read checks, and hold exactly what the layout's rows
    /// hold (damage in the rows themselves is the other checks' to report).
    static func summaryProblem(of record: LayoutRecord, storage: RowSnapshot, location: String) -> String? {
        guard let summary = record.directorySummary else { return nil }
        let summarized: (sections: [SectionRecord], groups: LayoutGroups.Builder)
        do {
            summarized = try DirectorySummary.decode(summary, record: record)
        } catch {
            return "its directory summary \((error as? SummaryDamage)?.reason ?? "cannot be read")"
        }
        guard let rows = try? directoryRows(of: record, storage: storage, location: location) else { return nil }
        let sameSections = summarized.sections.count == rows.sections.count
            && zip(summarized.sections, rows.sections).allSatisfy { $0.geometry == $1.geometry && $0.slot == $1.slot }
        // The rows are whole, so their first items are in order: the
        // summary's are the same when they are too and each section has as many.
        let sameGroups = summarized.groups.firstItemsInOrder && LayoutGroups(summarized.groups).holdsTheSame(as: LayoutGroups(rows.groups))
        guard sameSections, sameGroups else { return "its directory summary does not hold what its section and cell group rows hold" }
        return nil
    }
}
