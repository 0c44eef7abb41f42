import Synchronization
import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraSQLite

@Suite("store: precompute progress")
struct PrecomputeProgressTests {
    /// 200,000 grid cells in two sections.
    static func feed(axis: String = "vertical") throws -> Spec {
        try Spec(jsonText: """
        {"format": 1, "axis": "\(axis)", "sections": [
          {"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 150000, "cycle": [{}]}},
          {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 50000, "cycle": [{}]}}]}
        """)
    }

    @Test("every computed width reports growing counts of the known total, ending at it", arguments: TestBackend.all)
    func reportsPerWidth(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let reports = Mutex<[PrecomputeProgress]>([])
        try await temporary.store.save(Self.feed(), as: "feed", crossExtents: [390, 820], jobs: 1) { report in
            reports.withLock { $0.append(report) }
        }
        let all = reports.withLock { $0 }
        #expect(Set(all.map(\.specName)) == ["feed"])
        #expect(all.map(\.crossExtent).first == 390 && all.map(\.crossExtent).last == 820)
        for width in [390.0, 820.0] {
            let reportsOfWidth = all.filter { $0.crossExtent == width }
            // At least one report per 64k cells, and the final one.
            #expect(reportsOfWidth.count >= 4, "\(width): \(reportsOfWidth.count) reports")
            #expect(reportsOfWidth.allSatisfy { $0.cellsExpected == 200_000 })
            let counts = reportsOfWidth.map(\.cellsWritten)
            #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
            #expect(counts.last == 200_000)
        }
        // The widths do not interleave: one layout at a time.
        #expect(all.map(\.crossExtent) == all.map(\.crossExtent).sorted())
    }

    @Test("widths laid out at once report growing counts each, and each width's last report comes as it is stored, in order", arguments: TestBackend.all)
    func reportsOnWorkers(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let reports = Mutex<[PrecomputeProgress]>([])
        try await temporary.store.save(Self.feed(), as: "feed", crossExtents: [820, 390, 600], jobs: 3) { report in
            reports.withLock { $0.append(report) }
        }
        let all = reports.withLock { $0 }
        for width in [390.0, 600.0, 820.0] {
            let counts = all.filter { $0.crossExtent == width }.map(\.cellsWritten)
            #expect(counts.count >= 4 && counts == counts.sorted() && counts.last == 200_000, "\(width): \(counts)")
        }
        let finals = all.filter { $0.cellsWritten == 200_000 }.map(\.crossExtent)
        #expect(finals == [390, 600, 820], "\(finals)")
    }

    @Test("a save that lays a stored width out again in full (new axis) reports it; one that keeps everything reports nothing", arguments: TestBackend.all)
    func reportsFullRecomputesOfUpdates(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(Self.feed(), as: "feed", crossExtents: [390])
        let unchanged = Mutex<[PrecomputeProgress]>([])
        try await temporary.store.save(Self.feed(), as: "feed") { report in unchanged.withLock { $0.append(report) } }
        #expect(unchanged.withLock { $0 }.isEmpty)

        let swapped = Mutex<[PrecomputeProgress]>([])
        let report = try await temporary.store.update(name: "feed", with: Self.feed(axis: "horizontal")) { progress in
            swapped.withLock { $0.append(progress) }
        }
        #expect(report.layouts.map(\.fullRecompute) == [true])
        #expect(swapped.withLock { $0 }.last == PrecomputeProgress(specName: "feed", crossExtent: 390, cellsWritten: 200_000, cellsExpected: 200_000))
    }
}
