import Foundation
import Locking
import Synchronization
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraPrecompute
import TesseraTiles

/// A batch on several workers: the store it writes is the one a single
/// worker writes, whatever the number of workers and the room between the
/// stages; failures and stops keep their meaning.
@Suite("store: a batch on several workers")
struct BatchWorkersTests {
    static let extents = BatchPrecomputeTests.extents

    /// Random specs that fit both extents, a name given twice among them,
    /// and a spec that fails at index 7.
    static func specs(count: Int, seed: UInt64) throws -> [Spec] {
        var specs: [Spec] = []
        var seed = seed
        while specs.count < count {
            seed += 1
            var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
            var spec = try Spec(jsonText: generator.spec(maxSections: 3, maxItems: 60).json)
            spec.name = "feed-\(specs.count)"
            guard (try? LayoutEngine().layout(spec, crossExtent: extents[0])) != nil,
                  (try? LayoutEngine().layout(spec, crossExtent: extents[1])) != nil else { continue }
            specs.append(spec)
        }
        specs[7] = try BatchPrecomputeTests.bad("bad")
        // A later spec under an earlier name: saved after it, and wins.
        specs[count - 3].name = specs[2].name
        return specs
    }

    /// What a store holds: specs with their content hashes, every layout's
    /// elements and tile revision.
    static func snapshot(_ store: LayoutStore) async throws -> (specs: [String], elements: [String: [LayoutElement]], revisions: [String]) {
        var revisions: [String] = []
        for layout in try await store.layouts() {
            guard case .found(let manifest, _) = try await store.tileManifest(name: layout.specName, crossExtent: layout.crossExtent, compute: .never) else {
                Issue.record("no manifest for \(layout.specName) at \(layout.crossExtent)")
                continue
            }
            revisions.append("\(layout.specName)@\(layout.crossExtent): \(manifest.revision)")
        }
        return (try await store.specs().map { "\($0.name) \($0.contentHash)" }, try await BatchPrecomputeTests.contents(store), revisions)
    }

    @Test("every number of workers writes the store one worker writes, and the same report", arguments: TestBackend.all)
    func sameStore(backend: TestBackend) async throws {
        let specs = try Self.specs(count: 40, seed: 100)
        let one = try await TemporaryStore(backend)
        let expected = try await one.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .skip, jobs: 1)
        #expect(expected.saved == 39 && expected.failures.map(\.index) == [7])
        let stored = try await Self.snapshot(one.store)
        for jobs in [2, 3, 8] {
            let many = try await TemporaryStore(backend)
            let report = try await many.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .skip, jobs: jobs)
            #expect(report.saved == expected.saved && report.unchanged == expected.unchanged, "jobs \(jobs)")
            #expect(report.failures == expected.failures && report.layoutsComputed == expected.layoutsComputed, "jobs \(jobs)")
            let snapshot = try await Self.snapshot(many.store)
            #expect(snapshot.specs == stored.specs && snapshot.revisions == stored.revisions, "jobs \(jobs)")
            #expect(snapshot.elements == stored.elements, "jobs \(jobs)")
            #expect(try await many.store.check().isHealthy)
        }
    }

    @Test("a batch counts its workers' CPU time, within the process's CPU time over it, also when nothing is laid out")
    func workersCPUTime() async throws {
        let specs = try Self.specs(count: 40, seed: 300)
        let temporary = try await TemporaryStore(.sqlite)
        let before = Clock.processCPU()
        let report = try await temporary.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .skip, jobs: 2)
        let spent = Clock.processCPU() - before
        #expect(report.saved == 39)
        // Other tests' threads only add to the process's time; 10 ms to spare.
        #expect(report.workersCPUSeconds > 0 && report.workersCPUSeconds <= spent + 0.01, "\(report.workersCPUSeconds) s of \(spent) s")
        // Unchanged specs are still checked and fingerprinted by the workers, though not laid out.
        let again = try await temporary.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .skip, jobs: 2)
        #expect(again.unchanged == 37 && again.saved == 2 && again.workersCPUSeconds > 0 && again.workersCPUSeconds < report.workersCPUSeconds)
    }

    @Test("with room for one spec between the stages, four workers still finish, in order", arguments: TestBackend.all)
    func tinyReadAhead(backend: TestBackend) async throws {
        let specs = try Self.specs(count: 24, seed: 300)
        let one = try await TemporaryStore(backend)
        _ = try await one.store.saveBatch(specs, crossExtents: Self.extents, onFailure: .skip, jobs: 1)
        let tight = try await TemporaryStore(backend)
        let report = try await tight.store.saveBatch(
            SpecSource(specs), crossExtents: Self.extents, onFailure: .skip, jobs: 4, progress: nil, cancellation: nil, readAheadBytes: 1
        )
        #expect(report.saved == 23 && report.failures.map(\.index) == [7])
        let expected = try await Self.snapshot(one.store)
        let snapshot = try await Self.snapshot(tight.store)
        #expect(snapshot.specs == expected.specs && snapshot.revisions == expected.revisions)
        #expect(snapshot.elements == expected.elements)
    }

    @Test("with .stop and four workers, exactly the specs before the failure are stored", arguments: TestBackend.all)
    func stopWithWorkers(backend: TestBackend) async throws {
        let specs = try Self.specs(count: 30, seed: 500)
        let temporary = try await TemporaryStore(backend)
        let taken = Mutex(0)
        let report = try await temporary.store.saveBatch(
            specs.lazy.map { spec in
                taken.withLock { $0 += 1 }
                return spec
            },
            crossExtents: Self.extents, onFailure: .stop, jobs: 4
        )
        #expect(report.stopped && report.saved == 7 && report.failures.map(\.index) == [7])
        #expect(try await temporary.store.specs().map(\.name).sorted() == specs[0..<7].compactMap(\.name).sorted())
        // The workers take a few specs past the failure, not the whole sequence.
        #expect(taken.withLock { $0 } < specs.count)
        #expect(try await temporary.store.check().isHealthy)
    }

    static func result<T>(_ body: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    @Test("a new spec's widths laid out at once store what one at a time stores; an update after is the same", arguments: TestBackend.all)
    func saveOnWorkers(backend: TestBackend) async throws {
        let extents: [Double] = [300, 414, 820, 360, 1024]
        var saved = 0
        for seed in UInt64(40)..<UInt64(46) {
            var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
            var spec = try Spec(jsonText: generator.spec(maxSections: 4, maxItems: 300).json)
            spec.name = "feed"
            let one = try await TemporaryStore(backend)
            let many = try await TemporaryStore(backend)
            let expected = await Self.result { try await one.store.save(spec, crossExtents: extents, jobs: 1) }
            let result = await Self.result { try await many.store.save(spec, crossExtents: extents, jobs: 4) }
            switch (expected, result) {
            case (.success(let expected), .success(let result)):
                saved += 1
                #expect(result.layouts.map(\.crossExtent) == expected.layouts.map(\.crossExtent) && result.created == expected.created)
                #expect(result.report == expected.report)
                let snapshot = try await Self.snapshot(many.store)
                let stored = try await Self.snapshot(one.store)
                #expect(snapshot.specs == stored.specs && snapshot.revisions == stored.revisions && snapshot.elements == stored.elements)
                // Saved again with a section more: updated the same way.
                var changed = spec
                changed.sections.append(Section(layout: GridLayout(fraction: 3), items: .cycle(count: 9, [Item()])))
                let updatedOne = try await one.store.save(changed, crossExtents: extents, jobs: 1)
                let updatedMany = try await many.store.save(changed, crossExtents: extents, jobs: 4)
                #expect(updatedOne.report == updatedMany.report)
                #expect(try await Self.snapshot(many.store).elements == Self.snapshot(one.store).elements)
            case (.failure(let expected), .failure(let error)):
                // The first width that fails, as one at a time finds it.
                #expect(error as? StoreError == expected as? StoreError, "\(error)")
            default:
                Issue.record("one worker and four disagree: \(expected) against \(result)")
            }
        }
        #expect(saved >= 3, "too few random specs fit every width to compare")
        // About 1 MB of frames a width: its rows reach the writer in several pieces while it is laid out.
        let large = try Spec(jsonText: """
            {"format": 1, "name": "large", "sections": [{"layout": {"kind": "grid", "fraction": 3, "aspectRatio": 1}, "items": {"count": 120000, "cycle": [{}, {"aspectRatio": 1.5}, {}]}}]}
            """)
        let single = try await TemporaryStore(backend)
        let parallel = try await TemporaryStore(backend)
        try await single.store.save(large, crossExtents: [390, 820, 1024], jobs: 1)
        try await parallel.store.save(large, crossExtents: [390, 820, 1024], jobs: 3)
        let (expected, stored) = (try await Self.snapshot(single.store), try await Self.snapshot(parallel.store))
        #expect(stored.elements.values.map(\.count).sorted() == [120_000, 120_000, 120_000])
        #expect(stored.specs == expected.specs && stored.revisions == expected.revisions && stored.elements == expected.elements)
        // A spec that fails at its two narrow widths: the narrowest's error, whatever the workers.
        let bad = try BatchPrecomputeTests.bad("bad")
        let temporary = try await TemporaryStore(backend)
        let one = await #expect(throws: StoreError.self) { try await temporary.store.save(bad, crossExtents: [1000, 414, 300], jobs: 1) }
        let many = await #expect(throws: StoreError.self) { try await temporary.store.save(bad, crossExtents: [1000, 414, 300], jobs: 3) }
        #expect(one != nil && one == many, "\(String(describing: one)) against \(String(describing: many))")
        #expect(try await temporary.store.specs().isEmpty)
    }

    @Test("a number of workers outside 1 to 1,024 is refused before anything is read")
    func jobsBounded() async throws {
        let temporary = try await TemporaryStore(.memory)
        for jobs in [0, -1, 1_025] {
            let error = await #expect(throws: StoreError.self) {
                try await temporary.store.saveBatch([try BatchPrecomputeTests.feed("a", items: 3)], crossExtents: [300], jobs: jobs)
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "jobs must be 1 to 1024 workers, not \(jobs)")
        }
        #expect(try await temporary.store.specs().isEmpty)
    }
}
