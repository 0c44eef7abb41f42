import Foundation
import Synchronization
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraPrecompute
import TesseraTiles

/// Shard stores merged into one: the answers of a single run, every row
/// verified on the way, all or nothing, conflicts refused unless replacing.
@Suite("store: merging shard stores")
struct MergeTests {
    static let extents = BatchPrecomputeTests.extents

    /// Random specs that fit both extents, named feed-0….
    static func specs(count: Int, seed: UInt64) throws -> [Spec] {
        var specs = try BatchWorkersTests.specs(count: count, seed: seed)
        specs[7] = try BatchPrecomputeTests.feed("feed-7", items: 40)
        specs[count - 3].name = "feed-\(count - 3)"
        return specs
    }

    /// Saves `specs`, appends to one, lays out one more width of another and
    /// invalidates one layout: item runs, a spec at three widths, a stale layout.
    static func fill(_ store: LayoutStore, with specs: [Spec]) async throws {
        _ = try await store.saveBatch(specs, crossExtents: extents, onFailure: .stop, jobs: 1)
        let names = specs.compactMap(\.name)
        if names.contains("feed-7") {
            _ = try await store.append(name: "feed-7", section: 0, items: Array(repeating: Item(aspectRatio: 1.5), count: 9))
        }
        for name in names where SpecShard.number(of: name, count: 5) == 1 {
            _ = try await store.precompute(name: name, crossExtents: [360])
        }
        for name in names where SpecShard.number(of: name, count: 5) == 2 {
            _ = try await store.invalidate(name: name, crossExtent: extents[0])
        }
    }

    static func layouts(_ store: LayoutStore) async throws -> [String] {
        try await store.layouts().map { "\($0.specName)@\($0.crossExtent) \($0.state) \($0.elementCount) \($0.contentLength)" }
    }

    /// Every spec with its content hash, and every fresh layout's elements and tile revision.
    static func snapshot(_ store: LayoutStore) async throws -> (specs: [String], layouts: [String]) {
        var layouts: [String] = []
        for layout in try await store.layouts() where layout.state == .fresh {
            let name = layout.specName, extent = layout.crossExtent
            guard case .found(let manifest, _) = try await store.tileManifest(name: name, crossExtent: extent, compute: .never) else {
                Issue.record("no manifest for \(name) at \(extent)")
                continue
            }
            let elements = try await store.elements(name: name, crossExtent: extent, in: Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7))
            layouts.append("\(name)@\(extent) \(manifest.revision) \(elements)")
        }
        return (try await store.specs().map { "\($0.name) \($0.contentHash)" }, layouts)
    }

    @Test("three shards merged give the store one run gives: specs, frames, tile revisions, stale layouts", arguments: TestBackend.all)
    func shardsEqualOneRun(backend: TestBackend) async throws {
        let specs = try Self.specs(count: 30, seed: 700)
        let one = try await TemporaryStore(backend)
        try await Self.fill(one.store, with: specs)
        var shards: [TemporaryStore] = []
        for index in 0..<3 {
            let shard = try await TemporaryStore(backend)
            let part = try SpecShard(index: index, count: 3)
            try await Self.fill(shard.store, with: specs.filter { part.contains(name: $0.name ?? "") })
            shards.append(shard)
        }
        let merged = try await TemporaryStore(backend)
        let reports = Mutex<[MergeProgress]>([])
        let report = try await merged.store.merge(from: shards.map(\.store)) { progress in reports.withLock { $0.append(progress) } }
        #expect(reports.withLock { $0 } == (1...30).map { MergeProgress(specsDone: $0, specsTotal: 30) })
        let layouts = try await one.store.layouts()
        #expect(report.specsAdded == 30 && report.specsReplaced == 0 && report.specsAlreadyStored == 0)
        #expect(report.layoutsCopied == layouts.count && report.groupsCopied > report.layoutsCopied && report.frameBytes > 0)
        #expect(try await Self.layouts(merged.store) == Self.layouts(one.store))
        #expect(layouts.contains { $0.state == .stale } && layouts.contains { $0.crossExtent == 360 })
        let expected = try await Self.snapshot(one.store)
        let snapshot = try await Self.snapshot(merged.store)
        #expect(snapshot.specs == expected.specs && snapshot.specs.count == 30)
        #expect(snapshot.layouts == expected.layouts && snapshot.layouts.count > 50)
        #expect(try await merged.store.specJSON(named: "feed-7") == one.store.specJSON(named: "feed-7"))
        #expect(try await merged.store.check().isHealthy)
        // Appending to a merged spec goes on as in the store it came from.
        for store in [one.store, merged.store] {
            _ = try await store.append(name: "feed-7", section: 0, items: [Item(), Item()])
        }
        #expect(try await Self.snapshot(merged.store).layouts == Self.snapshot(one.store).layouts)
    }

    @Test("SQLite shards merged into a PostgreSQL store answer as one run on SQLite")
    func sqliteShardsIntoPostgres() async throws {
        let specs = try Self.specs(count: 16, seed: 900)
        let one = try await TemporaryStore(.sqlite)
        try await Self.fill(one.store, with: specs)
        var shards: [TemporaryStore] = []
        for index in 0..<2 {
            let shard = try await TemporaryStore(.sqlite)
            let part = try SpecShard(index: index, count: 2)
            try await Self.fill(shard.store, with: specs.filter { part.contains(name: $0.name ?? "") })
            shards.append(shard)
        }
        let merged = try await TemporaryStore(.postgres)
        let report = try await merged.store.merge(from: shards.map(\.store))
        #expect(report.specsAdded == 16)
        #expect(try await Self.layouts(merged.store) == Self.layouts(one.store))
        let expected = try await Self.snapshot(one.store)
        let snapshot = try await Self.snapshot(merged.store)
        #expect(snapshot.specs == expected.specs && snapshot.layouts == expected.layouts)
        #expect(try await merged.store.check().isHealthy)
    }

    @Test("a name held with other content fails the merge and leaves the store as it was; replacing takes the later", arguments: TestBackend.all)
    func conflicts(backend: TestBackend) async throws {
        let first = try await TemporaryStore(backend)
        let second = try await TemporaryStore(backend)
        let target = try await TemporaryStore(backend)
        try await first.store.save(BatchPrecomputeTests.feed("home", items: 20), crossExtents: Self.extents)
        try await second.store.save(BatchPrecomputeTests.feed("home", items: 30), crossExtents: Self.extents)
        try await second.store.save(BatchPrecomputeTests.feed("other", items: 5), crossExtents: Self.extents)
        try await target.store.save(BatchPrecomputeTests.feed("kept", items: 8), crossExtents: [300])
        let before = try await Self.layouts(target.store)
        let error = await #expect(throws: StoreError.self) { try await target.store.merge(from: [first.store, second.store]) }
        #expect(error?.code == .conflict && error?.spec == "home")
        #expect(error?.message == "the spec \"home\" of \(second.store.location.quotedPathForMessage) differs from the one already merged "
            + "or stored under that name; nothing was merged (replace it to keep the later)")
        #expect(try await Self.layouts(target.store) == before, "a failed merge left rows behind")

        let report = try await target.store.merge(from: [first.store, second.store], replacing: true)
        #expect(report.specsAdded == 2 && report.specsReplaced == 1)
        #expect(try await target.store.specs().map(\.name) == ["home", "kept", "other"])
        #expect(try await target.store.specs().first?.contentHash == second.store.specs().first?.contentHash)
        #expect(try await target.store.check().isHealthy)
    }

    @Test("the same spec twice is taken once, with the widths the first lacked", arguments: TestBackend.all)
    func sameSpecOnce(backend: TestBackend) async throws {
        let first = try await TemporaryStore(backend)
        let second = try await TemporaryStore(backend)
        let spec = try BatchPrecomputeTests.feed("home", items: 20)
        try await first.store.save(spec, crossExtents: [300])
        try await second.store.save(spec, crossExtents: [300, 414])
        let target = try await TemporaryStore(backend)
        let report = try await target.store.merge(from: [first.store, second.store])
        #expect(report.specsAdded == 1 && report.specsAlreadyStored == 1 && report.layoutsCopied == 2)
        #expect(try await target.store.layouts().map(\.crossExtent) == [300, 414])
        let again = try await target.store.merge(from: [second.store])
        #expect(again.specsAlreadyStored == 1 && again.layoutsCopied == 0)
        #expect(try await Self.snapshot(target.store).layouts == Self.snapshot(second.store).layouts)
    }

    @Test("a damaged row of a source fails the merge, naming the source, and nothing is written", arguments: TestBackend.all)
    func damagedSource(backend: TestBackend) async throws {
        let source = try await TemporaryStore(backend)
        for index in 0..<3 { try await source.store.save(BatchPrecomputeTests.feed("feed-\(index)", items: 30), crossExtents: [300]) }
        try await backend.change(
            sql: "UPDATE cell_groups SET frames = zeroblob(length(frames)) WHERE id = (SELECT max(id) FROM cell_groups)",
            postgres: "UPDATE cell_groups SET frames = decode(repeat('00', length(frames)), 'hex') WHERE id = (SELECT max(id) FROM cell_groups)",
            memory: { tables in
                var done = false
                tables.alterGroups { group in
                    guard !done, let frames = group.frames else { return }
                    group.frames = [UInt8](repeating: 0, count: frames.count)
                    done = true
                }
            },
            on: source.store
        )
        let target = try await TemporaryStore(backend)
        let error = await #expect(throws: StoreError.self) { try await target.store.merge(from: [source.store]) }
        let location = source.store.location
        #expect(error?.code == .damaged && error?.store == location, "\(String(describing: error))")
        #expect(try await target.store.specs().isEmpty)
        #expect(try await target.store.layouts().isEmpty)
    }

    @Test("a store is not merged into itself")
    func notIntoItself() async throws {
        let temporary = try await TemporaryStore(.memory)
        try await temporary.store.save(BatchPrecomputeTests.feed("home", items: 3), crossExtents: [300])
        let error = await #expect(throws: StoreError.self) { try await temporary.store.merge(from: [temporary.store]) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message == "the store \(temporary.store.location.quotedPathForMessage) cannot be merged into itself")
    }
}
