import Foundation
import Synchronization
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraPrecompute
import TesseraSQLite

/// Many specs per transaction: the same rows as saving them one by one,
/// each spec whole or not at all, and a rerun that writes nothing.
@Suite("store: batch precompute")
struct BatchPrecomputeTests {
    static let extents: [Double] = [300, 414]

    /// A grid feed of `items` items named `name`.
    static func feed(_ name: String, items: Int, fraction: Int = 3) throws -> Spec {
        try Spec(jsonText: """
            {"format": 1, "name": "\(name)", "sectionSpacing": 8, "sections": [
              {"id": "top", "layout": {"kind": "grid", "fraction": \(fraction), "itemSpacing": 2, "lineSpacing": 2},
               "header": {"size": 40, "pinned": true}, "items": {"count": \(items), "cycle": [{}, {"aspectRatio": 1.5}]}},
              {"layout": {"kind": "staggered", "columns": 2, "itemSpacing": 4, "lineSpacing": 4},
               "items": {"count": \(items / 2), "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.25}]}}]}
            """)
    }

    /// Valid at 300 and 414 until its second section, which cannot fit two
    /// items with 400 points between them: fails after its first section's rows.
    static func bad(_ name: String) throws -> Spec {
        try Spec(jsonText: """
            {"format": 1, "name": "\(name)", "sections": [
              {"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 30, "cycle": [{}]}},
              {"layout": {"kind": "grid", "fraction": 2, "itemSpacing": 400}, "items": [{}]}]}
            """)
    }

    /// Every stored element of every layout, by name and extent.
    static func contents(_ store: LayoutStore) async throws -> [String: [LayoutElement]] {
        var result: [String: [LayoutElement]] = [:]
        for layout in try await store.layouts() {
            #expect(layout.state == .fresh)
            result["\(layout.specName)@\(layout.crossExtent)"] = try await store.elements(
                name: layout.specName, crossExtent: layout.crossExtent, in: Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)
            )
        }
        return result
    }

    @Test("a batch stores what saving each spec stores, frame for frame", arguments: TestBackend.all)
    func equalsOneByOne(backend: TestBackend) async throws {
        var specs: [Spec] = []
        let single = try await TemporaryStore(backend)
        for seed in UInt64(1)...24 {
            var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
            var spec = try Spec(jsonText: generator.spec(maxSections: 4, maxItems: 80).json)
            spec.name = "feed-\(seed)"
            // Random specs may not fit these widths: keep those that do.
            guard await (try? single.store.save(spec, crossExtents: Self.extents)) != nil else { continue }
            specs.append(spec)
        }
        #expect(specs.count > 12)
        let batch = try await TemporaryStore(backend)
        let store = batch.store
        let report = try await store.saveBatch(
            // A generous time limit: this test counts the spec limit's transactions.
            SpecSource(specs), crossExtents: Self.extents, onFailure: .stop, progress: nil, cancellation: nil,
            transactionSeconds: 600, transactionSpecs: 5
        )
        #expect(report.saved == specs.count)
        #expect(report.unchanged == 0 && report.failures.isEmpty && !report.stopped)
        #expect(report.layoutsComputed == specs.count * Self.extents.count)
        #expect(report.transactions == (specs.count + 4) / 5)
        #expect(try await Self.contents(batch.store) == Self.contents(single.store))
        #expect(try await batch.store.specs().map(\.contentHash) == single.store.specs().map(\.contentHash))
        #expect(try await batch.store.check().isHealthy)
    }

    @Test("with .skip a failing spec is rolled back alone, mid-transaction", arguments: TestBackend.all)
    func skipRollsBackAlone(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let specs = try [Self.feed("a", items: 20), Self.feed("b", items: 30), Self.bad("bad"), Self.feed("c", items: 40), Self.feed("d", items: 50)]
        let store = temporary.store
        let report = try await store.saveBatch(
            SpecSource(specs), crossExtents: Self.extents, onFailure: .skip, progress: nil, cancellation: nil, transactionSpecs: 4
        )
        #expect(report.saved == 4 && report.unchanged == 0 && !report.stopped)
        let failure = try #require(report.failures.first)
        #expect(report.failures.count == 1)
        #expect(failure.index == 2 && failure.name == "bad")
        #expect(failure.error.code == .invalidSpec)
        #expect(failure.error.path == "sections[1].layout.fraction")
        #expect(failure.error.spec == "bad")
        #expect(try await temporary.store.specs().map(\.name) == ["a", "b", "c", "d"])
        #expect(try await temporary.store.layouts().count == 8)
        #expect(try await temporary.store.check().isHealthy)
        let one = try await TemporaryStore(backend)
        for spec in specs where spec.name != "bad" { try await one.store.save(spec, crossExtents: Self.extents) }
        #expect(try await Self.contents(temporary.store) == Self.contents(one.store))
    }

    /// A batch of `specs` with `.stop` on one worker, and how many of them it read.
    static func batchCountingReads(_ specs: [Spec], into store: LayoutStore) async throws -> (report: BatchReport, taken: Int) {
        let taken = Mutex(0)
        let report = try await store.saveBatch(
            specs.lazy.map { spec in
                taken.withLock { $0 += 1 }
                return spec
            },
            // One worker: the others would take specs past the failure.
            crossExtents: extents, onFailure: .stop, jobs: 1
        )
        return (report, taken.withLock { $0 })
    }

    @Test("with .stop the specs before the failure are stored and nothing after it is read", arguments: TestBackend.all)
    func stopKeepsWhatCameBefore(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let specs = try [Self.feed("a", items: 20), Self.feed("b", items: 30), Self.bad("bad"), Self.feed("c", items: 40)]
        let (report, taken) = try await Self.batchCountingReads(specs, into: temporary.store)
        #expect(taken == 3)
        #expect(report.saved == 2 && report.stopped)
        #expect(report.failures.map(\.index) == [2])
        #expect(try await temporary.store.specs().map(\.name) == ["a", "b"])
        #expect(try await temporary.store.layouts().count == 4)
    }

    @Test("with .stop a stored spec that fails only in its update stops the batch before the next spec is read", arguments: TestBackend.all)
    func stopOnUpdateFailure(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(Self.feed("b", items: 30), crossExtents: Self.extents)
        let storedB = try await temporary.store.specs()
        // Stored, so laid out in the write (an update), not before it.
        var broken = try Self.bad("b")
        broken.sections[0].items = .cycle(count: 31, [Item()])
        let specs = try [Self.feed("a", items: 20), broken, Self.feed("c", items: 40)]
        let (report, taken) = try await Self.batchCountingReads(specs, into: temporary.store)
        #expect(taken == 2)
        #expect(report.saved == 1 && report.stopped)
        #expect(report.failures.map(\.index) == [1])
        #expect(report.failures.first?.error.code == .invalidSpec)
        #expect(try await temporary.store.specs().map(\.name) == ["a", "b"])
        #expect(try await temporary.store.specs().filter { $0.name == "b" } == storedB, "the update of b was rolled back")
    }

    @Test("a name given twice in one batch: both are saved in order and the later wins, whether its layouts were computed ahead or not", arguments: TestBackend.all)
    func repeatedName(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let first = try Self.feed("twice", items: 20), second = try Self.feed("twice", items: 44, fraction: 4)
        let report = try await temporary.store.saveBatch([first, Self.feed("other", items: 9), second], crossExtents: Self.extents)
        #expect(report.saved == 3 && report.failures.isEmpty)
        let one = try await TemporaryStore(backend)
        for spec in [first, second] { try await one.store.save(spec, crossExtents: Self.extents) }
        try await one.store.save(Self.feed("other", items: 9), crossExtents: Self.extents)
        #expect(try await Self.contents(temporary.store) == Self.contents(one.store))
        #expect(try await temporary.store.specs().map(\.contentHash) == one.store.specs().map(\.contentHash))
        #expect(try await temporary.store.check().isHealthy)
    }

    @Test("a spec too large to lay out ahead of its write is laid out in it, between specs that were: the same rows", arguments: TestBackend.all)
    func largeSpecInWrite(backend: TestBackend) async throws {
        let specs = try [Self.feed("small", items: 30), Self.feed("large", items: 40_000), Self.feed("after", items: 20)]
        #expect(try #require(specs[1].knownItemCount) * Self.extents.count > LayoutStore.batchBufferedCells)
        let batch = try await TemporaryStore(backend)
        let report = try await batch.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .stop)
        #expect(report.saved == 3 && report.layoutsComputed == 6)
        let one = try await TemporaryStore(backend)
        for spec in specs { try await one.store.save(spec, crossExtents: Self.extents) }
        #expect(try await Self.contents(batch.store) == Self.contents(one.store))
        #expect(try await batch.store.check().isHealthy)
    }

    @Test("a batch cancelled while its specs are read keeps the transactions committed before and rolls back the one under way", arguments: TestBackend.all)
    func cancelledWhileReading(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let flag = CancellationFlag()
        let specs = try (0..<8).map { try Self.feed("feed-\($0)", items: 12) }
        let store = temporary.store
        let error = await #expect(throws: StoreError.self) {
            try await store.saveBatch(
                SpecSource(specs.enumerated().lazy.map { index, spec in
                    if index == 5 { flag.cancel() }
                    return spec
                }),
                crossExtents: Self.extents, onFailure: .stop, progress: nil, cancellation: flag,
                transactionSeconds: 600, transactionSpecs: 2
            )
        }
        #expect(error?.code == .cancelled)
        // Whole transactions of two specs each, in order: as many as the writer
        // committed before it saw the flag or the reading side gave up. The
        // third (spec 4) waits for spec 5, which is never sent: never committed.
        let names = try await temporary.store.specs().map(\.name)
        #expect([[], ["feed-0", "feed-1"], ["feed-0", "feed-1", "feed-2", "feed-3"]].contains(names), "\(names)")
        #expect(try await temporary.store.layouts().count == 2 * names.count)
        #expect(try await temporary.store.check().isHealthy)
    }

    @Test("running a batch again writes nothing; a changed spec is updated incrementally", arguments: TestBackend.all)
    func rerunIsIdempotent(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        var specs = try (0..<6).map { try Self.feed("feed-\($0)", items: 10 + 7 * $0) }
        let progress = Mutex<[BatchProgress]>([])
        let first = try await store.saveBatch(specs, crossExtents: Self.extents) { report in progress.withLock { $0.append(report) } }
        #expect(first.saved == 6 && first.layoutsComputed == 12)
        #expect(progress.withLock { $0.last } == BatchProgress(specsDone: 6, saved: 6, layoutsComputed: 12))
        let layouts = try await store.layouts()
        let stored = try await store.specs()
        let bytes = await store.fileBytes

        let again = try await store.saveBatch(specs, crossExtents: Self.extents)
        #expect(again.unchanged == 6 && again.saved == 0 && again.layoutsComputed == 0)
        // Same ids, same compute times, same update times: nothing was written.
        #expect(try await store.layouts() == layouts)
        #expect(try await store.specs() == stored)
        #expect(await store.fileBytes == bytes)
        // One width fewer is still unchanged: every width asked for is fresh.
        #expect(try await store.saveBatch(specs, crossExtents: [300]).unchanged == 6)

        // The same content with another section id is a change of identity.
        specs[1].sections[0].id = "renamed"
        specs[4].sections[1].items = specs[4].sections[1].items.appending([Item(aspectRatio: 2)])
        let changed = try await store.saveBatch(specs, crossExtents: Self.extents)
        #expect(changed.saved == 2 && changed.unchanged == 4)
        let feed4 = try #require(try await store.layouts(name: "feed-4").first)
        #expect(feed4.id == layouts.first { $0.specName == "feed-4" }?.id, "updated in place, not recomputed")
        for index in [1, 4] {
            try await IncrementalUpdateTests.expectMatchesFullRecompute(
                store, name: "feed-\(index)", extents: Self.extents, expected: specs[index], seed: 0, step: "rerun"
            )
        }
        #expect(try await store.spec(named: "feed-1")?.sections[0].id == "renamed")

        // A stale layout is laid out again, a new width added.
        try await store.invalidate(name: "feed-0", crossExtent: 300)
        let refreshed = try await store.saveBatch(specs, crossExtents: Self.extents + [500])
        #expect(refreshed.saved == 6 && refreshed.layoutsComputed == 7)
    }

    @Test("a spec without a name fails with its index", arguments: TestBackend.all)
    func unnamedSpec(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        var unnamed = try Self.feed("x", items: 5)
        unnamed.name = nil
        let specs = try [Self.feed("a", items: 5), unnamed, Self.feed("b", items: 5)]
        let report = try await temporary.store.saveBatch(specs, crossExtents: [300], onFailure: .skip)
        #expect(report.saved == 2)
        let failure = try #require(report.failures.first)
        #expect(failure.index == 1 && failure.name == nil)
        #expect(failure.error.code == .invalidArgument)
        #expect(failure.error.message == "spec 1 of the batch has no \"name\"")
        let stopped = try await temporary.store.saveBatch(specs, crossExtents: [0], onFailure: .stop)
        #expect(stopped.failures.map(\.error.code) == [.invalidArgument])
        #expect(stopped.failures.map(\.index) == [0] && stopped.stopped)
    }

    @Test("the async form stores the batch, and a cancelled one keeps only committed transactions", arguments: TestBackend.all)
    func asyncBatch(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let specs = try (0..<5).map { try Self.feed("feed-\($0)", items: 12) }
        let report = try await temporary.store.saveBatch(specs, crossExtents: Self.extents)
        #expect(report.saved == 5)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await temporary.store.saveBatch(specs, crossExtents: [500])
        }
        let error = await #expect(throws: StoreError.self) { try await cancelled.value }
        #expect(error?.code == .cancelled)
        #expect(try await temporary.store.layouts().count == 10)
    }
}
