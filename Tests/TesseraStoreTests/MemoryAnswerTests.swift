import Foundation
import Locking
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraSQLite

/// Warm queries answered from memory (`LayoutStore.answerFromMemory`) and
/// the verified frames in the store's cache (`StoreCache`): the same answers as
/// reads, before and after commits, and damage still reported.
@Suite("store: answers from memory")
struct MemoryAnswerTests {
    /// Random rects and viewports of a random layout, each asked twice (the
    /// first read fills the caches, the second is answered from them): both
    /// equal the engine's and brute force's.
    @Test("warm answers equal the engine's and brute force's, cold and warm", arguments: TestBackend.all, UInt64(1)...12)
    func warmEqualsEngine(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed &* 31, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 4, maxItems: 1200)
        let spec = try Spec(jsonText: json)
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "random", crossExtents: [extent])
        var random = SeededRandom(seed: seed)
        let all = memory.elements
        for _ in 0..<25 {
            let rect = LayoutStoreRoundTripTests.randomRect(in: memory.contentSize, using: &random)
            for pass in 0..<2 {
                let readsBefore = store.inMemoryReadsBegun
                let hits = try await store.elements(name: "random", crossExtent: extent, in: rect)
                #expect(hits == LayoutStoreRoundTripTests.bruteForce(all, rect), "seed \(seed) pass \(pass) rect \(rect)")
                #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect) == memory.visibleElements(viewport: rect),
                        "seed \(seed) pass \(pass) viewport \(rect)")
                #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect, direction: .rightToLeft)
                    == memory.visibleElements(viewport: rect, direction: .rightToLeft), "seed \(seed) pass \(pass) viewport \(rect)")
                // The in-memory backend counts its reads: a warm pass begins none.
                if pass == 1, let readsBefore {
                    #expect(store.inMemoryReadsBegun == readsBefore, "seed \(seed): a warm query began a read")
                }
            }
        }
        #expect(store.cacheStatistics.frameHits > 0)
    }

    /// A commit by another handle (another process's connections and
    /// caches) changes the state the store names: the next query reads,
    /// and answers the new layout, then from memory again.
    @Test("a commit by another handle is seen by the next query, which then answers from memory again", arguments: TestBackend.all)
    func commitsInvalidate(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let other = try await temporary.reopen()
        let versions = try [(2000, 1.0), (2600, 0.75), (1500, 1.5)].map { count, aspect in
            try Spec(jsonText: """
            {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
              "header": {"size": 44, "pinned": true}, "items": {"count": \(count), "cycle": [{"aspectRatio": \(aspect)}, {}]}}]}
            """)
        }
        try await store.save(versions[0], as: "feed", crossExtents: [390])
        for (index, version) in versions.enumerated() {
            if index > 0 { try await other.save(version, as: "feed") }
            let engine = try LayoutEngine().layout(version, crossExtent: 390)
            for y in stride(from: 0.0, to: engine.contentSize.height, by: 700) {
                let viewport = Rect(x: 0, y: y, width: 390, height: 844)
                for pass in 0..<2 {
                    #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                        == engine.visibleElements(viewport: viewport), "version \(index) at \(y), pass \(pass)")
                }
            }
        }
    }

    /// A reader cache compares a query with the layout it answered last
    /// before it hashes: queries that switch between layouts and widths,
    /// in runs and one by one, across a commit, each get their own answer.
    @Test("queries that switch between layouts, before and after a commit, each get their own layout's answer", arguments: TestBackend.all)
    func switchingLayouts(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let specs = try [(900, 3), (1300, 2), (700, 4)].map { count, fraction in
            try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": \#(fraction)}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
        }
        try await store.save(specs[0], as: "a", crossExtents: [390, 430])
        try await store.save(specs[1], as: "b", crossExtents: [390])
        var expected = [
            "a@390": try LayoutEngine().layout(specs[0], crossExtent: 390), "a@430": try LayoutEngine().layout(specs[0], crossExtent: 430),
            "b@390": try LayoutEngine().layout(specs[1], crossExtent: 390),
        ]
        let order = ["a@390", "a@390", "b@390", "a@430", "a@430", "a@430", "b@390", "a@390", "b@390", "b@390", "a@430"]
        for step in 0..<2 {
            if step == 1 {
                // Another handle commits a new version of "a": the next queries see it.
                try await temporary.reopen().save(specs[2], as: "a")
                expected["a@390"] = try LayoutEngine().layout(specs[2], crossExtent: 390)
                expected["a@430"] = try LayoutEngine().layout(specs[2], crossExtent: 430)
            }
            // 77 rounds; the second step begins with the layout the first ended with.
            for round in 0..<77 {
                let key = order[(round + step * 10) % order.count]
                let parts = key.split(separator: "@")
                let (name, width) = (String(parts[0]), Double(parts[1]) ?? 0)
                let viewport = Rect(x: 0, y: Double(round % 7) * 300, width: width, height: 844)
                #expect(try await store.visibleElements(name: name, crossExtent: width, viewport: viewport, computeIfMissing: false)
                    == expected[key]?.visibleElements(viewport: viewport), "step \(step) round \(round): \(key)")
            }
        }
    }

    /// Reader caches count their uses of the shared caches and add them
    /// when statistics are read, or when they are dropped (more readers at
    /// once than are kept): every query's uses are counted, once.
    @Test("the caches' hits add up exactly over 16 concurrent tasks of queries, more reader caches than a store keeps", arguments: TestBackend.all)
    func countedUsesAddUp(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(try StoreConformanceTests.grid(3000), as: "feed", crossExtents: [390])
        let viewport = Rect(x: 0, y: 5000, width: 390, height: 844)
        @Sendable func query() async throws -> [LayoutElement] {
            try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
        }
        let expected = try await query()
        func hits() -> (directories: Int, names: Int, frames: Int) {
            let statistics = store.cacheStatistics
            return (statistics.hits, statistics.nameHits, statistics.frameHits)
        }
        // One warm query: what each query adds.
        let start = hits()
        _ = try await query()
        let one = hits()
        let perQuery = (one.directories - start.directories, one.names - start.names, one.frames - start.frames)
        #expect(perQuery.0 == 1 && perQuery.2 >= 1, "one warm query: \(perQuery)")
        let threads = 16, queries = 300
        let wrong = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    for _ in 0..<queries {
                        let found = try? await query()
                        if found != expected { wrong.withLock { $0 += 1 } }
                    }
                }
            }
        }
        #expect(wrong.withLock { $0 } == 0)
        let end = hits()
        let total = threads * queries
        #expect(end.directories - one.directories == total * perQuery.0)
        #expect(end.names - one.names == total * perQuery.1)
        #expect(end.frames - one.frames == total * perQuery.2)
    }

    /// Bytes that do not match their checksum never enter the cache: every
    /// query of them fails, cold or after the rest of the layout was read.
    @Test("damaged frames are reported by every query that meets them, and never cached", arguments: TestBackend.all)
    func damageReported(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1000, "cycle": [{}]}}]}"#)
        try await store.save(spec, as: "feed", crossExtents: [300])
        let engine = try LayoutEngine().layout(spec, crossExtent: 300)
        // Items 250… fill rows 84 to 166, 100 points each.
        let damaged = Rect(x: 0, y: 9000, width: 300, height: 844)
        let intact = Rect(x: 0, y: 100, width: 300, height: 844)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: damaged) == engine.visibleElements(viewport: damaged))
        let cachedGroups = store.cacheStatistics.frameGroups
        #expect(cachedGroups >= 1)
        // A new store (no cache) on the damaged rows.
        try await temporary.change(
            sql: "UPDATE cell_groups SET frames = zeroblob(length(frames)) WHERE id IN (SELECT group_id FROM cell_group_directory WHERE first_item = 250)",
            postgres: "UPDATE cell_groups SET frames = decode(repeat('00', length(frames)), 'hex') WHERE first_item = 250",
            memory: { tables in tables.alterGroups { if $0.firstItem == 250 { $0.frames = [UInt8](repeating: 0, count: $0.frames?.count ?? 0) } } }
        )
        let reader = try await temporary.reopen()
        for pass in 0..<3 {
            #expect(try await reader.visibleElements(name: "feed", crossExtent: 300, viewport: intact) == engine.visibleElements(viewport: intact))
            let error = try await #require(throws: StoreError.self, "pass \(pass)") {
                try await reader.visibleElements(name: "feed", crossExtent: 300, viewport: damaged)
            }
            #expect(error.code == .damaged, "pass \(pass): \(error)")
            #expect(error.message.contains("items 250…"), "\(error.message)")
        }
        // The store that verified them before the damage answers from the bytes it verified.
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: damaged) == engine.visibleElements(viewport: damaged))
    }

    /// No connection is taken: with one reader connection held by another
    /// thread, warm queries still answer (a read would wait for it).
    @Test("a warm query of a file-backed store takes no connection")
    func noConnection() async throws {
        let temporary = try await TemporaryStore(.sqlite)
        let store = try LayoutStore(path: temporary.store.path, maximumReaders: 1)
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3000, "cycle": [{}]}}]}"#)
        try await store.save(spec, as: "feed", crossExtents: [300])
        let engine = try LayoutEngine().layout(spec, crossExtent: 300)
        let viewports = (0..<20).map { Rect(x: 0, y: Double($0) * 1300, width: 300, height: 844) }
        for viewport in viewports { _ = try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) }
        let held = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Task.detached {
            try? await store.readAsync { _ in
                held.signal()
                // Released by the test, or after 5 s so that a failing test ends.
                _ = release.wait(timeout: .now() + 5)
            }
        }
        held.wait()
        let started = Date()
        for viewport in viewports {
            #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: viewport) == engine.visibleElements(viewport: viewport))
        }
        let seconds = Date().timeIntervalSince(started)
        release.signal()
        #expect(seconds < 4, "the warm queries waited for the held connection (\(seconds) s)")
    }

    /// A warm query answered from memory runs on its caller's executor: an
    /// actor on an executor that counts what is enqueued on it sees nothing
    /// enqueued by such queries, and a job at least for each query that reads.
    @Test("an answer from memory stays on the caller's executor; a read hops back to it", arguments: TestBackend.all)
    func answerStaysOnCallersExecutor(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try AsyncStoreTests.grid(count: 300)
        try await store.save(spec, as: "grid", crossExtents: [390])
        let viewport = Rect(x: 0, y: 200, width: 390, height: 844)
        let expected = try LayoutEngine().layout(spec, crossExtent: 390).visibleElements(viewport: viewport)
        // The first query reads and fills the caches; the second answers from them.
        for _ in 0..<2 { _ = try await store.visibleElements(name: "grid", crossExtent: 390, viewport: viewport) }
        let client = CountedClient()
        let warm = try await client.visibleElements(store, name: "grid", viewport: viewport)
        #expect(warm.value == expected)
        // PostgreSQL names no committed state unless it listens for commits: its warm query is one statement, awaited.
        if store.backend.committedState != nil {
            #expect(warm.enqueued == 0, "a warm query left the caller's executor and came back \(warm.enqueued) times")
        } else {
            #expect(backend == .postgres && warm.enqueued >= 50, "\(backend): \(warm.enqueued) jobs for 50 queries that read")
        }
        // No layout at 391: each query misses memory, reads off the caller's executor and comes back to it.
        let read = try await client.missingLayouts(store, name: "grid", viewport: viewport)
        #expect(read.value == 50)
        #expect(read.enqueued >= 50, "\(read.enqueued) jobs for 50 queries that read: they did not leave the caller's executor")
    }
}

/// A serial executor that counts the jobs enqueued on it.
private final class CountingSerialExecutor: SerialExecutor {
    let enqueued = Locked(0)
    private let queue = DispatchQueue(label: "counting executor")

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.withLock { $0 += 1 }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// An actor on a ``CountingSerialExecutor``: what it asks the store 50 times, in
/// its own code, and the jobs enqueued on its executor meanwhile.
private actor CountedClient {
    private let executor = CountingSerialExecutor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func visibleElements(_ store: LayoutStore, name: String, viewport: Rect) async throws -> (value: [LayoutElement], enqueued: Int) {
        let before = executor.enqueued.withLock { $0 }
        var value: [LayoutElement] = []
        for _ in 0..<50 { value = try await store.visibleElements(name: name, crossExtent: 390, viewport: viewport) }
        return (value, executor.enqueued.withLock { $0 } - before)
    }

    /// Queries of a layout that is not stored, which the store may not compute; how many said so
    /// (any other error is the caller's).
    func missingLayouts(_ store: LayoutStore, name: String, viewport: Rect) async throws -> (value: Int, enqueued: Int) {
        let before = executor.enqueued.withLock { $0 }
        var value = 0
        for _ in 0..<50 {
            do {
                _ = try await store.visibleElements(name: name, crossExtent: 391, viewport: viewport, computeIfMissing: false)
            } catch let error as StoreError where error.code == .notFound {
                value += 1
            }
        }
        return (value, executor.enqueued.withLock { $0 } - before)
    }
}
