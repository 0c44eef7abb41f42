import Foundation
import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
import SQLiteToolkit

/// A store is one file once its writer closes: `close()` (or releasing the
/// store) folds the WAL into the database file and, as the last connection,
/// removes `-wal` and `-shm`, so that the file copied alone is the store.
@Suite("SQLite backend: closing leaves the store in one file")
struct CloseTests {
    static let spec = #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 3000, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}}]}"#
    static let viewports = [Rect(x: 0, y: 0, width: 390, height: 844), Rect(x: 0, y: 40_000, width: 390, height: 844)]

    static func sideFiles(_ path: String) -> [String] {
        ["-wal", "-shm"].filter { FileManager.default.fileExists(atPath: path + $0) }
    }

    /// The answers a fresh read-only store at `path` gives.
    static func answers(_ path: String) async throws -> [[LayoutElement]] {
        let store = try LayoutStore(path: path, readOnly: true)
        defer { store.close() }
        var answers: [[LayoutElement]] = []
        for viewport in viewports { answers.append(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)) }
        return answers
    }

    /// Writes a spec and an append through a store at `path`, ended by `finish`.
    static func write(_ path: String, finish: (LayoutStore) -> Void) async throws -> [[LayoutElement]] {
        let store = try LayoutStore(path: path)
        try await store.save(Spec(jsonText: spec), as: "feed", crossExtents: [390, 820])
        _ = try await store.append(name: "feed", section: 0, items: Array(repeating: Item(), count: 500))
        var answers: [[LayoutElement]] = []
        for viewport in viewports { answers.append(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)) }
        #expect(!sideFiles(path).isEmpty, "a store in use has its WAL")
        finish(store)
        return answers
    }

    @Test("close() removes -wal and -shm; the file copied alone answers exactly as the store did")
    func closeLeavesOneFile() async throws {
        let directory = try TemporaryDirectory("close")
        let path = directory.file("feed.sqlite")
        let written = try await Self.write(path) { $0.close() }
        #expect(Self.sideFiles(path).isEmpty)
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("copy.sqlite"))
        #expect(try await Self.answers(directory.file("copy.sqlite")) == written)
        #expect(written[0].count > 10)
    }

    @Test("releasing a store closes it as close() does")
    func deinitCloses() async throws {
        let directory = try TemporaryDirectory("deinit")
        let path = directory.file("feed.sqlite")
        let written = try await Self.write(path) { _ in }
        #expect(Self.sideFiles(path).isEmpty)
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("copy.sqlite"))
        #expect(try await Self.answers(directory.file("copy.sqlite")) == written)
    }

    @Test("with another connection still open, close() folds the WAL in (the file alone answers) and keeps the WAL for it")
    func otherConnectionOpen() async throws {
        let directory = try TemporaryDirectory("shared")
        let path = directory.file("feed.sqlite")
        let other = try LayoutStore(path: path)
        defer { other.close() }
        let written = try await Self.write(path) { $0.close() }
        #expect(Self.sideFiles(path).contains("-wal"), "the other connection's WAL was removed under it")
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("copy.sqlite"))
        #expect(try await Self.answers(directory.file("copy.sqlite")) == written)
        // The other connection still reads and writes.
        #expect(try await other.visibleElements(name: "feed", crossExtent: 390, viewport: Self.viewports[0]) == written[0])
        #expect(try await other.invalidate(name: "feed", crossExtent: 820) == 1)
    }

    @Test("close() copies every frame of the WAL without emptying it: another process's connection finds nothing left to copy, reads every commit, and its next write starts the WAL over")
    func closeCopiesWithoutTruncating() async throws {
        let directory = try TemporaryDirectory("full-checkpoint")
        let path = directory.file("feed.sqlite")
        try LayoutStore(path: path).close()
        // Another connection, as another process has one: it has read the store (in WAL mode) and stays open.
        let other = try Connection(path: path, options: Connection.Options.store)
        defer { other.close() }
        #expect(try other.scalarInt64("SELECT count(*) FROM specs") == 0)
        let written = try await Self.write(path) { $0.close() }
        let walBytes = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walBytes > 0, "the WAL is left as it was, not cut to zero bytes")
        // Every frame logged is in the database file: a checkpoint finds them all copied.
        let checkpoint = try other.prepare("PRAGMA wal_checkpoint(PASSIVE)")
        #expect(try checkpoint.step())
        #expect(checkpoint.int(at: 0) == 0 && checkpoint.int(at: 1) == checkpoint.int(at: 2), "busy, logged, copied: \(checkpoint.int(at: 0)), \(checkpoint.int(at: 1)), \(checkpoint.int(at: 2))")
        checkpoint.reset()
        try FileManager.default.copyItem(atPath: path, toPath: directory.file("copy.sqlite"))
        #expect(try await Self.answers(directory.file("copy.sqlite")) == written)
        // The other connection reads the last commit, and writes from the WAL's beginning.
        #expect(try other.scalarInt64("SELECT count(*) FROM spec_item_runs") == 1)
        try other.execute("BEGIN IMMEDIATE; UPDATE specs SET updated_at = updated_at; COMMIT")
        let after = (try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(after <= walBytes)
    }

    @Test("every read and write after close() fails with code closed; closing twice does nothing")
    func useAfterClose() async throws {
        let directory = try TemporaryDirectory("closed")
        let store = try LayoutStore(path: directory.file("feed.sqlite"))
        try await store.save(Spec(jsonText: Self.spec), as: "feed", crossExtents: [390])
        store.close()
        store.close()
        await #expect(throws: StoreError.self) { try await store.specs() }
        do {
            _ = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: Self.viewports[0])
            Issue.record("a query after close() answered")
        } catch let error as StoreError {
            #expect(error.code == .closed)
            #expect(error.message.contains("was closed"))
        }
        do {
            try await store.save(Spec(jsonText: Self.spec), as: "other", crossExtents: [390])
            Issue.record("a save after close() succeeded")
        } catch let error as StoreError {
            #expect(error.code == .closed)
        }
    }
}
