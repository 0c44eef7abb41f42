import Dispatch
import Synchronization
import Foundation
import Testing
import TesseraLayout
import TesseraInMemory
import TesseraTestSupport
@testable import TesseraStore

@Suite("store: the async API")
struct AsyncStoreTests {
    static func grid(count: Int = 30) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    static let everything = Rect(x: 0, y: 0, width: 1000, height: 1e7)

    /// Starts `body` on a thread of its own; the returned function waits for its result.
    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) -> @Sendable () async throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let value = Result { try body() }
            result.withLock { $0 = value }
            done.signal()
        }
        return {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    done.wait()
                    continuation.resume()
                }
            }
            guard let value = result.withLock({ $0 }) else { throw CancellationError() }
            return try value.get()
        }
    }

    /// Waits for a computation at `gate` without blocking a cooperative thread.
    static func arrival(at gate: Gate) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: gate.waitForArrival()) }
        }
    }

    @Test("async queries answer exactly like the in-memory engine", arguments: TestBackend.all, UInt64(1)...8)
    func sameAnswers(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 4, maxItems: 300)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: json)
        try await store.save(spec, as: "random", crossExtents: [extent])
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        var random = SeededRandom(seed: seed)
        let height = try await store.contentSize(name: "random", crossExtent: extent).height
        for _ in 0..<20 {
            let rect = Rect(x: random.double(-10...extent), y: random.double(-10...max(height, 1)), width: random.double(0...200), height: random.double(0...900))
            #expect(try await store.elements(name: "random", crossExtent: extent, in: rect) == memory.elements(in: rect))
            #expect(try await store.visibleElements(name: "random", crossExtent: extent, viewport: rect) == memory.visibleElements(viewport: rect))
        }
        let all = try await store.elements(name: "random", crossExtent: extent, in: Self.everything)
        #expect(all == memory.elements(in: Self.everything))
        for cell in all.filter({ $0.kind == .cell }).prefix(5) {
            let item = try #require(cell.item)
            #expect(try await store.element(name: "random", crossExtent: extent, section: cell.section, item: item) == cell)
        }
        #expect(try await store.specs().map(\.name) == ["random"])
        #expect(try await store.layouts(name: "random") == store.layouts())
    }

    @Test("a spec that changes while a query's computation runs is laid out again as it now is, not refused", arguments: TestBackend.all)
    func specChangesDuringComputation(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend, registry: GateLayout.registry)
        let store = temporary.store
        let gate = Gate.make()
        try await store.save(GateLayout.spec(gate: gate, count: 10), as: "gated")
        let asker = Task { try await store.elements(name: "gated", crossExtent: 100, in: Self.everything) }
        #expect(await Self.arrival(at: gate))
        try await store.append(name: "gated", section: 0, items: [Item(), Item()])
        gate.open()
        #expect(try await asker.value.count == 12)
        #expect(try await store.layouts(name: "gated").map(\.state) == [.fresh])
    }

    @Test("tasks asking for one missing layout share one computation, which holds no lock: other reads and writes go on",
          arguments: TestBackend.all)
    func sharedComputation(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend, registry: GateLayout.registry)
        let store = temporary.store
        let gate = Gate.make()
        try await store.save(GateLayout.spec(gate: gate), as: "gated")
        try await store.save(Self.grid(), as: "other", crossExtents: [300])
        try await store.save(Self.grid(), as: "third", crossExtents: [300])

        let askers = (0..<8).map { _ in Task { try await store.layout(name: "gated", crossExtent: 100) } }
        #expect(await Self.arrival(at: gate))
        // The computation is under way and stopped: everything else is served meanwhile.
        #expect(store.flights.withLock { $0.count } == 1)
        #if os(Linux)
        // Computations run below the priority of the threads that answer queries.
        #expect((gate.arrivedNiceness ?? 0) >= 10)
        #endif
        #expect(try await store.visibleElements(name: "other", crossExtent: 300, viewport: Self.everything).count == 30)
        #expect(try await store.layout(name: "other", crossExtent: 600).computed)
        #expect(try await store.invalidate(name: "third") == 1)
        #expect(try await store.layouts(name: "gated").isEmpty)

        gate.open()
        var results: [ComputedLayout] = []
        for asker in askers { results.append(try await asker.value) }
        #expect(results.filter(\.computed).count == 1)
        #expect(Set(results.map(\.layout.id)).count == 1)
        #expect(results.allSatisfy { $0.layout.cellCount == 1000 && $0.layout.state == .fresh })
        #expect(!gate.waitForArrival(seconds: 0.2), "the layout was computed more than once")
        #expect(store.flights.withLock { $0.count } == 0)
        let cells = try await store.elements(name: "gated", crossExtent: 100, in: Self.everything)
        #expect(cells.count == 1000)
        #expect(cells.last?.frame == Rect(x: 0, y: 9990, width: 10, height: 10))
    }

    @Test("an unknown spec, a bad width or a layout not to compute are answered from a read while a writer works",
          arguments: TestBackend.all)
    func readsDoNotWaitForTheWriter(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend, registry: GateLayout.registry)
        let store = temporary.store
        try await store.save(Self.grid(), as: "other", crossExtents: [300])
        let gate = Gate.make()
        let spec = try GateLayout.spec(gate: gate)
        // A save computes inside its write: the writer is busy until the gate opens.
        // Waited for on a thread of its own: a blocked cooperative thread would slow every other test.
        let writing = Self.onThread { try waitForAsync { try await store.save(spec, as: "gated", crossExtents: [100]).layouts } }
        #expect(await Self.arrival(at: gate))

        let unknown = await #expect(throws: StoreError.self) { try await store.visibleElements(name: "nope", crossExtent: 390, viewport: Self.everything) }
        #expect(unknown?.code == .notFound)
        #expect(unknown?.spec == "nope")
        let badWidth = await #expect(throws: StoreError.self) { try await store.elements(name: "other", crossExtent: -5, in: Self.everything) }
        #expect(badWidth?.code == .invalidArgument)
        let notComputed = await #expect(throws: StoreError.self) {
            try await store.elements(name: "other", crossExtent: 500, in: Self.everything, computeIfMissing: false)
        }
        #expect(notComputed?.code == .notFound)
        #expect(notComputed?.crossExtent == 500)
        #expect(try await store.element(name: "other", crossExtent: 300, section: 0, item: 30) == nil)
        #expect(try await store.element(name: "other", crossExtent: 300, section: 1, item: 0) == nil)
        #expect(try await store.visibleElements(name: "other", crossExtent: 300, viewport: Self.everything).count == 30)

        gate.open()
        #expect(try await writing().map(\.cellCount) == [1000])
        #expect(try await store.layouts(name: "other").map(\.crossExtent) == [300])
    }

    @Test("a query that may not compute answers notFound for a stale layout, and leaves it stale", arguments: TestBackend.all)
    func noComputeOnStale(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.grid(), as: "feed", crossExtents: [300])
        try await store.invalidate(name: "feed")
        let error = await #expect(throws: StoreError.self) {
            try await store.visibleElements(name: "feed", crossExtent: 300, viewport: Self.everything, computeIfMissing: false)
        }
        #expect(error?.code == .notFound)
        #expect(try await store.layouts().map(\.state) == [.stale])
        #expect(try await store.visibleElements(name: "feed", crossExtent: 300, viewport: Self.everything).count == 30)
        #expect(try await store.layouts().map(\.state) == [.fresh])
    }

    @Test("a cancelled async save stops between chunks of cells and leaves nothing behind", arguments: TestBackend.all)
    func cancelledSave(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend, registry: GateLayout.registry)
        let store = temporary.store
        try await store.save(Self.grid(), as: "other", crossExtents: [300])
        let gate = Gate.make()
        let spec = try GateLayout.spec(gate: gate, count: 50_000)
        let saving = Task { try await store.save(spec, as: "gated", crossExtents: [100, 200]) }
        #expect(await Self.arrival(at: gate))
        saving.cancel()
        gate.open()
        let error = await #expect(throws: StoreError.self) { try await saving.value }
        #expect(error?.code == .cancelled)
        #expect(try await store.specs().map(\.name) == ["other"])
        #expect(try await store.layouts().map(\.specName) == ["other"])
    }

    @Test("a task cancelled before its write starts writes nothing", arguments: TestBackend.all)
    func cancelledBeforeStart(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.save(Self.grid(), as: "feed", crossExtents: [300])
        }
        let error = await #expect(throws: StoreError.self) { try await task.value }
        #expect(error?.code == .cancelled)
        #expect(try await store.specs().isEmpty)
    }
}
