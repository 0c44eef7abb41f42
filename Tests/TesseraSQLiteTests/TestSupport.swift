import Foundation
@testable import TesseraSQLite
@testable import SQLiteToolkit
import TesseraStore
import TesseraLayout
import Testing

/// A fresh directory under /tmp, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init(_ label: String = "store") throws {
        path = "/tmp/tessera-store-tests-\(label)-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}

/// A store at `path` holding `spec` as "feed" at 300 points, written by a
/// store that is closed when this returns (its WAL folded into the file).
func writeClosedStore(_ spec: Spec, at path: String) async throws {
    let writer = try LayoutStore(path: path)
    defer { writer.close() }
    try await writer.save(spec, as: "feed", crossExtents: [300])
    await writer.finishBackgroundWork()
}

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Opens an in-memory connection (with the toolkit's usual settings).
func memoryConnection() throws -> Connection {
    try Connection(path: ":memory:")
}

extension Connection {
    /// The first column of the first row of `sql` as an integer (test shorthand).
    func int(_ sql: String) throws -> Int {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int(at: 0) : -1
    }
}

/// A pool on the store at `path` that migrates it to schema `version` at
/// most, as a Tessera of that version would open it.
func openOldStore(at path: String, version: Int) throws -> DatabasePool {
    try DatabasePool(path: path, migrator: Migrator(migrations: Array(EmbeddedMigrations.all.prefix(version))))
}

/// Makes a store at schema `version` at `path` holding the rows of the
/// current store at `source`: the columns that version has, as an older
/// Tessera would have written them.
func makeOldStore(at path: String, version: Int, copying source: String) throws {
    let pool = try openOldStore(at: path, version: version)
    try pool.write { db in
        try db.execute("ATTACH DATABASE '\(source)' AS current")
        for table in ["specs", "spec_sections", "layouts", "layout_sections", "cell_groups", "cell_group_directory", "cell_groups_rtree"] {
            let columns = try db.prepare("SELECT group_concat(name, ', ') FROM pragma_table_info('\(table)', 'main')")
            _ = try columns.step()
            let names = columns.text(at: 0)
            try db.execute("INSERT INTO main.\(table) (\(names)) SELECT \(names) FROM current.\(table)")
        }
    }
    try pool.writeWithoutTransaction { db in try db.execute("DETACH DATABASE current") }
    guard try pool.read({ try $0.int("PRAGMA user_version") }) == version else {
        throw StoreError(.internal, "the old store is not at version \(version)")
    }
}

/// Expects the first query of a store opened anew on `path`, for each
/// viewport `step` points apart down the layout of `spec` at `extent`
/// (stored as `name`), to answer as the engine's in-memory layout does.
func expectFirstQueries(at path: String, name: String, spec: Spec, crossExtent extent: Double, every step: Double) async throws {
    let memory = try LayoutEngine().layout(spec, crossExtent: extent)
    for y in stride(from: 0.0, to: memory.contentSize.height, by: step) {
        let viewport = Rect(x: 0, y: y, width: extent, height: 844)
        let fresh = try LayoutStore(path: path)
        defer { fresh.close() }
        #expect(try await fresh.visibleElements(name: name, crossExtent: extent, viewport: viewport, computeIfMissing: false)
            == memory.visibleElements(viewport: viewport))
    }
}
