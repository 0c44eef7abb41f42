import Synchronization
import TesseraLayout
import TesseraStore
import TesseraStoreTesting

/// The in-memory backend as the store's tests open it: the product's
/// handle, which counts the reads it begins (a warm query begins none),
/// checks the tables' indexes and reaches, and tells the bytes its rows take
/// (so that a test sees whether anything was written).
package final class InstrumentedStorage: InMemoryBackend {
    private let storage: InMemoryStorage
    /// Reads begun through this handle.
    package let readsBegun = Atomic<Int>(0)

    package init(_ storage: InMemoryStorage) {
        self.storage = storage
    }

    package var database: InMemoryDatabase { storage.database }
    package var committedState: SnapshotTag? { storage.committedState }

    package func read(_ body: @escaping @Sendable (any RowReader) throws -> Void, on executor: any BlockingExecutor) async throws {
        readsBegun.add(1, ordering: .relaxed)
        try await storage.read(body, on: executor)
    }

    package func write(_ body: (any RowWriter) async throws -> Void) async throws {
        try await storage.write(body)
    }

    package func settle(compacting: Bool) async throws { try await storage.settle(compacting: compacting) }
    package func close() { storage.close() }
    package func storageBytes() -> Int { database.snapshot().tables.byteCount }

    package func integrityProblems() async throws -> [String] {
        try await storage.integrityProblems() + database.snapshot().tables.integrityProblems()
    }
}

extension LayoutStore {
    /// A store on `database` through an ``InstrumentedStorage``.
    package static func instrumentedInMemory(
        _ database: InMemoryDatabase = InMemoryDatabase(), registry: LayoutRegistry = .standard,
        cacheBudget: Int = LayoutStore.defaultCacheBudget, frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget
    ) -> LayoutStore {
        inMemory(database: database, registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget, wrap: InstrumentedStorage.init)
    }

    /// Reads begun by a store opened with ``instrumentedInMemory(_:registry:cacheBudget:)``; nil for another.
    package var inMemoryReadsBegun: Int? {
        (backend as? InstrumentedStorage)?.readsBegun.load(ordering: .relaxed)
    }
}
