import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit
@testable import TesseraStore
import TesseraInMemory
import TesseraStoreTesting
@_spi(Testing) import TesseraPostgres
import TesseraTestSupport

/// The backends every store test runs against: the store's semantics are
/// the same whatever keeps its rows. A new backend is one case here.
enum TestBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    /// A schema of its own on the server of ``PostgresTestServer``.
    case postgres
    /// Rows in memory (TesseraStoreTesting, instrumented by TesseraInMemory):
    /// the store's rules without a database.
    case memory

    static let all = allCases
    /// The backends that keep their rows in SQL tables, for the tests that
    /// change rows in SQL (``execute(_:on:)``); each such test says what
    /// covers the same rule on ``memory``.
    static let sqlBackends: [TestBackend] = [.sqlite, .postgres]

    var testDescription: String { rawValue }

    /// A new, empty store of this backend in `directory`.
    func makeStore(
        in directory: URL, registry: LayoutRegistry, cacheBudget: Int, frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget
    ) async throws -> LayoutStore {
        switch self {
        case .sqlite:
            try LayoutStore(
                path: directory.appendingPathComponent("layouts.sqlite").path, registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget
            )
        case .postgres:
            try await LayoutStore(url: try PostgresTestServer.freshStoreURL(), registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget)
        case .memory:
            LayoutStore.instrumentedInMemory(registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget)
        }
    }

    /// A second, independent handle on the same store, as another process
    /// would open it (its own connections and caches).
    func reopen(_ store: LayoutStore) async throws -> LayoutStore {
        switch self {
        case .sqlite: try LayoutStore(path: store.location, registry: store.registry)
        case .postgres: try await LayoutStore(url: store.location, registry: store.registry)
        case .memory: LayoutStore.instrumentedInMemory(try #require(store.inMemoryDatabase), registry: store.registry)
        }
    }

    /// Runs SQL on the store's own rows, as an older or newer program would
    /// have left them (the schema's tables and columns are the same on
    /// every backend).
    func execute(_ sql: String, on store: LayoutStore) async throws {
        switch self {
        case .sqlite:
            let pool = try #require(store.sqlitePool)
            try pool.write { connection in try connection.execute(sql) }
        case .postgres:
            try await store.executePostgres(sql)
        case .memory:
            throw StoreError(.internal, "an in-memory store has no SQL to run \(sql.quotedForMessage) on: change its rows with `change(sql:memory:)`")
        }
    }

    /// Changes the store's rows behind its back, as another program would
    /// (or damage would): `sql` on a backend of SQL tables (`postgres`
    /// instead on PostgreSQL when its schema differs), `memory` on the
    /// in-memory tables (a commit of its own, as another process's).
    func change(
        sql: String, postgres: String? = nil, memory: (inout InMemoryTables) -> Void, on store: LayoutStore
    ) async throws {
        switch self {
        case .sqlite: try await execute(sql, on: store)
        case .postgres: try await execute(postgres ?? sql, on: store)
        case .memory:
            try await #require(store.inMemoryDatabase).write { committed in
                var tables = committed.tables
                memory(&tables)
                return tables
            }
        }
    }

    /// An SQL expression for the bytes of `text` as a blob (`bytea`).
    func blob(_ text: String) -> String {
        let quoted = "'\(text.replacingOccurrences(of: "'", with: "''"))'"
        return switch self {
        case .sqlite: "CAST(\(quoted) AS BLOB)"
        case .postgres: "convert_to(\(quoted), 'UTF8')"
        // Never run: `execute` refuses SQL on memory (`change` takes a closure there).
        case .memory: quoted
        }
    }

    /// Drops what the store left on its server (a PostgreSQL schema), in
    /// a task of its own: a deinit cannot wait for it.
    func dropStore(_ store: LayoutStore) {
        guard self == .postgres, let url = try? PostgresURL(parsing: store.location) else { return }
        let script = "DROP SCHEMA IF EXISTS \(url.schema) CASCADE"
        Task.detached { try? await store.executePostgres(script) }
    }
}

/// A store in a fresh temporary folder, removed when the test ends.
final class TemporaryStore {
    let directory: URL
    let backend: TestBackend
    let store: LayoutStore

    init(
        _ backend: TestBackend = .sqlite, registry: LayoutRegistry = .standard, cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget
    ) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.backend = backend
        store = try await backend.makeStore(in: directory, registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget)
    }

    deinit {
        backend.dropStore(store)
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file for the test's own use (items files), beside the store.
    func file(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// Another handle on the same store (see ``TestBackend/reopen(_:)``).
    func reopen() async throws -> LayoutStore {
        try await backend.reopen(store)
    }

    /// Runs SQL on the store's rows (see ``TestBackend/execute(_:on:)``).
    func execute(_ sql: String) async throws {
        try await backend.execute(sql, on: store)
    }

    /// Changes the store's rows (see ``TestBackend/change(sql:postgres:memory:on:)``).
    func change(sql: String, postgres: String? = nil, memory: (inout InMemoryTables) -> Void) async throws {
        try await backend.change(sql: sql, postgres: postgres, memory: memory, on: store)
    }
}
