import Dispatch
import Foundation
import Synchronization
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore
import TesseraPrecompute

@Suite("SQLite backend: readers of one committed state share resolved layouts")
struct SharedResolvedNamesTests {
    @Test("a read's tag names its snapshot exactly: taken when the read begins, the same until someone commits")
    func snapshotTags() async throws {
        let directory = try TemporaryDirectory("tags")
        let pool = try DatabasePool(path: directory.file("store.sqlite"))
        try pool.write { db in try db.execute("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)") }
        let first = try pool.read { db in db.exactSnapshot }
        #expect(first != nil)
        #expect(try pool.read { db in db.exactSnapshot } == first, "nothing was committed")
        try pool.read { db throws in
            #expect(db.exactSnapshot == first)
            try pool.write { db in try db.execute("INSERT INTO t VALUES (40)") }
            // The snapshot was taken as the read began, before the commit:
            // what the tag names is what the read sees.
            #expect(try db.int("SELECT count(*) FROM t") == 1)
        }
        let second = try pool.read { db in db.exactSnapshot }
        #expect(second != nil && second != first)
        #expect(try pool.read { db in try db.int("SELECT count(*) FROM t") } == 2)
        // The writer's reads have no tag: what it resolves is its own.
        #expect(try pool.write { db in db.exactSnapshot } == nil)
    }

    static let spec = #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 90, "cycle": [{}]}}]}"#

    @Test("a layout resolved on one reader connection is found by another in the same state; a commit starts afresh, and an update is never answered from the old state")
    func sharedAcrossConnections() async throws {
        let directory = try TemporaryDirectory("shared-names")
        let store = try LayoutStore(path: directory.file("store.sqlite"), maximumReaders: 2)
        let spec = try Spec(jsonText: Self.spec)
        try await store.save(spec, as: "feed", crossExtents: [300])
        let viewport = Rect(x: 0, y: 0, width: 300, height: 400)
        let expected = try LayoutEngine().layout(spec, crossExtent: 300).visibleElements(viewport: viewport)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == expected)
        #expect(store.cacheStatistics.nameMisses == 1 && store.cacheStatistics.nameHits == 0)

        // Another thread holds the reader that resolved it: the next query runs on the other one.
        let pool = try #require(store.sqlitePool)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? pool.read { _ in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == expected)
        release.signal()
        done.wait()
        #expect(store.cacheStatistics.nameHits == 1, "\(store.cacheStatistics)")

        // A commit: a new state, resolved again.
        var changed = spec
        changed.sections[0].items = .cycle(count: 120, [Item(aspectRatio: 2)])
        try await store.save(changed, as: "feed")
        let updated = try LayoutEngine().layout(changed, crossExtent: 300).visibleElements(viewport: viewport)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == updated)
        #expect(store.cacheStatistics.nameMisses == 2)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == updated)
        #expect(store.cacheStatistics.nameHits == 2)
    }

    @Test("resolved names share the cache's one budget with the directories; the least recently used go")
    func budget() async throws {
        let directory = try TemporaryDirectory("names-budget")
        let store = try LayoutStore(path: directory.file("store.sqlite"), cacheBudget: 16 << 10, frameCacheBudget: 0)
        let spec = try Spec(jsonText: Self.spec)
        let names = (0..<80).map { "feed-with-a-longer-name-\($0)" }
        _ = try await store.saveBatch(names.map { name in var named = spec; named.name = name; return named }, crossExtents: [300])
        let viewport = Rect(x: 0, y: 0, width: 300, height: 400)
        for name in names { _ = try await store.visibleElements(name: name, crossExtent: 300, viewport: viewport) }
        let statistics = store.cacheStatistics
        #expect(statistics.budget == 16 << 10)
        #expect(statistics.bytes <= statistics.budget && statistics.frameGroups == 0)
        #expect(statistics.nameMisses == 80 && statistics.evictions > 0)
        #expect(statistics.names > 0 && statistics.names < 80 && statistics.layouts > 0 && statistics.layouts < 80)
        // The last feed queried is the most recently used: its name and directory are both still there.
        _ = try await store.visibleElements(name: names[79], crossExtent: 300, viewport: viewport)
        #expect(store.cacheStatistics.nameHits == statistics.nameHits + 1 && store.cacheStatistics.hits == statistics.hits + 1)
    }

    @Test("a reader whose snapshot has no tag (no WAL index mapped) finds again only what it resolved itself")
    func connectionScoped() async throws {
        let directory = try TemporaryDirectory("own-names")
        let path = directory.file("store.sqlite")
        let spec = try Spec(jsonText: Self.spec)
        try await writeClosedStore(spec, at: path)
        // Opened immutable: SQLite maps no WAL index, so no read can be named exactly.
        var configuration = DatabasePool.Configuration(maximumReaderCount: 2)
        configuration.readOnly = true
        configuration.connection.readOnlyOpen = .immutable
        let storage = try SQLiteStorage(path: path, configuration: configuration)
        let store = LayoutStore(backend: storage, location: storage.location)
        defer { store.close() }
        let viewport = Rect(x: 0, y: 0, width: 300, height: 400)
        let expected = try LayoutEngine().layout(spec, crossExtent: 300).visibleElements(viewport: viewport)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == expected)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == expected)
        #expect(store.cacheStatistics.nameMisses == 1 && store.cacheStatistics.nameHits == 1, "\(store.cacheStatistics)")

        // Each reader has its own tag, the same on every read until a commit.
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let held = Mutex<SnapshotTag?>(nil)
        // On threads that may block, as a thread of its own held it.
        let executor = StoreThreads()
        Task(executorPreference: executor) {
            try? await storage.read({ snapshot in
                held.withLock { $0 = (try? snapshot.resolutionScope)?.tag }
                holding.signal()
                release.wait()
            }, on: executor)
            done.signal()
        }
        holding.wait()
        let other = Mutex<ResolutionScope?>(nil)
        try await storage.read({ snapshot in
            let scope = try snapshot.resolutionScope
            other.withLock { $0 = scope }
        }, on: executor)
        let again = Mutex<ResolutionScope?>(nil)
        try await storage.read({ snapshot in
            let scope = try snapshot.resolutionScope
            again.withLock { $0 = scope }
        }, on: executor)
        release.signal()
        done.wait()
        let first = try #require(held.withLock { $0 })
        let second = try #require(other.withLock { $0 })
        #expect(second.reuse && second.tag == again.withLock { $0 }?.tag)
        #expect(first != second.tag)
    }
}
