import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraPrecompute
@testable import TesseraStoreFormat

/// A new layout's directory summary made from the rows as they were
/// written (`DirectoryRecorder`), not read back: it must be, byte for byte,
/// the summary of the rows the store holds.
@Suite("store: directory summaries of new layouts, from the rows written")
struct DirectoryRecorderTests {
    /// The summary on the row of `name` at `extent`, and the one its rows,
    /// read back and verified, make.
    static func summaries(_ store: LayoutStore, name: String, crossExtent: Double) async throws -> (stored: [UInt8]?, ofRows: [UInt8]?) {
        try await store.readAsync { storage in
            let record = try #require(try storage.layoutRecord(name: name, crossExtent: crossExtent))
            let rows = try LayoutStore.directoryRows(of: record, storage: storage)
            let ofRows = DirectorySummary.encode(sections: rows.sections, groups: rows.groups, layoutID: record.layout.id, revision: record.revision)
            return (record.directorySummary, ofRows)
        }
    }

    @Test("random specs saved one by one and in a batch: each summary is the rows' own, none past 64 rows", arguments: TestBackend.all)
    func summariesAreTheRows(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        var generator = RandomSpecGenerator(seed: 41, kinds: allKinds)
        var summarized = 0
        var unsummarized = 0
        var batch: [Spec] = []
        for index in 0..<24 {
            // From one row to well past 64 (groups of 250 items).
            let (json, extent) = index % 3 == 2
                ? generator.spec(sections: 10...40, items: 0...600)
                : generator.spec(sections: 1...6, items: 0...900)
            var spec = try Spec(jsonText: json)
            spec.name = "spec-\(index)"
            if index.isMultiple(of: 2) {
                try await temporary.store.save(spec, as: "spec-\(index)", crossExtents: [extent, extent + 37])
            } else {
                batch.append(spec)
            }
        }
        let report = try await temporary.store.saveBatch(batch, crossExtents: [320, 411])
        #expect(report.saved == batch.count, "\(report.failures.map(\.error.message))")
        for layout in try await temporary.store.layouts() {
            let (stored, ofRows) = try await Self.summaries(temporary.store, name: layout.specName, crossExtent: layout.crossExtent)
            // A Bool: two summaries of up to 2 KB each would fill the log.
            let same = stored == ofRows
            #expect(same, "\(layout.specName) at \(layout.crossExtent): \(stored?.count ?? 0) bytes stored, \(ofRows?.count ?? 0) of the rows")
            if stored == nil { unsummarized += 1 } else { summarized += 1 }
        }
        // Both kinds occur, so both paths were taken.
        #expect(summarized > 0)
        #expect(unsummarized > 0)
        #expect(try await temporary.store.check().isHealthy)
    }

    @Test("the rows written once are the directory; a row written twice, too few sections or an unknown id fall back to reading")
    func rowsAndFallbacks() throws {
        let frames: [UInt8] = [1, 2, 3]
        let bounds = QueryBounds(minCross: 0, maxCross: 10, minScroll: 0, maxScroll: 10)
        let section = SectionGeometry(
            index: 0, start: 0, header: nil, footer: nil, background: false, scrollStartInset: 0, scrollEndInset: 0, crossStartInset: 0,
            itemCount: 3, itemsExtent: 10, cellSpan: 0...2, orthogonalContentLength: nil
        )
        func recorded(groupTwice: Bool = false, sectionTwice: Bool = false) throws -> (DirectoryRecorder, RecordingSink) {
            let sink = RecordingSink()
            let recorder = DirectoryRecorder(sink)
            for _ in 0..<(groupTwice ? 2 : 1) {
                try frames.withUnsafeBytes { raw in
                    _ = try recorder.writeGroup(layoutID: 1, slot: 5, firstItem: 0, frames: raw, bounds: bounds, reach: GroupReach(first: bounds))
                }
            }
            for _ in 0..<(sectionTwice ? 2 : 1) {
                try recorder.writeSection(layoutID: 1, SectionRecord(geometry: section, slot: 5), placerState: nil)
            }
            return (recorder, sink)
        }
        let (recorder, sink) = try recorded()
        guard case .rows(let sections, let groups) = recorder.directory(sectionCount: 1) else {
            Issue.record("expected the rows written")
            return
        }
        #expect(sections.map(\.geometry) == [section] && sections.map(\.slot) == [5])
        #expect(groups.sectionCount == 1)
        #expect(groups.ids == [sink.lastID])
        #expect(groups.bounds == [bounds])
        #expect(groups.checksums == [frames.withUnsafeBytes { Checksum.of($0) }])
        // The layout row says two sections: the rows written are not all of it.
        guard case .unknown = recorder.directory(sectionCount: 2) else {
            Issue.record("two sections expected, one written: not a whole directory")
            return
        }
        for (groupTwice, sectionTwice) in [(true, false), (false, true)] {
            guard case .unknown = try recorded(groupTwice: groupTwice, sectionTwice: sectionTwice).0.directory(sectionCount: 1) else {
                Issue.record("a row written twice (group \(groupTwice), section \(sectionTwice)) is not a whole directory")
                return
            }
        }

        let unknown = DirectoryRecorder(RecordingSink(givesIDs: false))
        try frames.withUnsafeBytes { raw in
            _ = try unknown.writeGroup(layoutID: 1, slot: 5, firstItem: 0, frames: raw, bounds: bounds, reach: GroupReach(first: bounds))
        }
        try unknown.writeSection(layoutID: 1, SectionRecord(geometry: section, slot: 5), placerState: nil)
        guard case .unknown = unknown.directory(sectionCount: 1) else {
            Issue.record("a group without its id cannot be summarized from the writes")
            return
        }
    }
}

/// A sink that counts rows and gives groups ids (or none).
private final class RecordingSink: CellSink {
    let givesIDs: Bool
    private(set) var lastID: Int64 = 100

    init(givesIDs: Bool = true) {
        self.givesIDs = givesIDs
    }

    func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        guard givesIDs else { return nil }
        lastID += 1
        return lastID
    }

    func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {}
}
