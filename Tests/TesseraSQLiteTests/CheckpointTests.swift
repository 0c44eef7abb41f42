import Foundation
import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("SQLite backend: checkpoints never make a write wait")
struct CheckpointTests {
    static func spec(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": \#(count), "cycle": [{}]}}]}"#)
    }

    /// A waterfall of `count` cells: about 10 bytes of frames per cell
    /// (its scroll positions do not repeat), so 500,000 cells write more than
    /// the checkpoint threshold.
    static func waterfall(_ count: Int) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": \#(count), "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}, {"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}}]}"#)
    }

    static func walBytes(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
    }

    @Test("a large write returns while another connection holds an old snapshot; the WAL is folded in once nobody reads")
    func writeDoesNotWaitForReaders() async throws {
        let directory = try TemporaryDirectory("checkpoint")
        let path = directory.file("layouts.sqlite")
        // A busy timeout long enough that waiting for the reader would show
        // however slow the machine (a write of 500,000 cells takes about a
        // second in a release build, a minute under ThreadSanitizer).
        let store = try LayoutStore(path: path, busyTimeout: 900)
        try await store.save(Self.spec(10), as: "small", crossExtents: [400])

        // Another process's reader, holding its snapshot open.
        let reader = try Connection(path: path, mode: .readOnly)
        try reader.execute("BEGIN")
        let count = try reader.prepare("SELECT count(*) FROM layouts")
        #expect(try count.step())
        let started = Date()
        try await store.save(Self.waterfall(500_000), as: "large", crossExtents: [400])
        let seconds = Date().timeIntervalSince(started)
        // Waiting for the reader would have taken the whole busy timeout (900 s).
        #expect(seconds < 450, "the write waited \(seconds) s")
        let storage = try #require(store.backend as? SQLiteStorage)
        storage.checkpointer.drain()
        #expect(storage.checkpointer.statistics.passive == 1)
        #expect(storage.checkpointer.statistics.truncated == 0, "the WAL was reset under a reader")
        count.reset()
        try reader.execute("COMMIT")
        reader.close()

        // Nobody reads now: the next large write's checkpoint empties the WAL file.
        try await store.save(Self.waterfall(500_000), as: "large2", crossExtents: [400])
        storage.checkpointer.drain()
        #expect(storage.checkpointer.statistics.truncated == 1)
        #expect(Self.walBytes(path) == 0)
        #expect(try await store.check().isHealthy)
        #expect(try await store.elements(name: "large", crossExtent: 400, in: Rect(x: 0, y: 0, width: 400, height: 1e9)).count == 500_000)
    }

    @Test("many small writes fold the WAL in once it passes the threshold; SQLite's own checkpoints at commit are off")
    func smallWrites() async throws {
        let directory = try TemporaryDirectory("small-writes")
        let path = directory.file("layouts.sqlite")
        let store = try LayoutStore(path: path)
        let storage = try #require(store.backend as? SQLiteStorage)
        let pool = storage.pool
        #expect(try pool.write { try $0.scalarInt64("PRAGMA wal_autocheckpoint") } == 0)
        try await store.save(Self.spec(300), as: "feed0", crossExtents: [400])
        storage.checkpointer.drain()
        #expect(storage.checkpointer.statistics.passive == 0, "a small write asked for a checkpoint")
        for index in 1..<300 { try await store.save(Self.spec(300), as: "feed\(index)", crossExtents: [400]) }
        storage.checkpointer.drain()
        #expect(storage.checkpointer.statistics.passive >= 1)
        // What is not yet copied stays under the threshold plus the writes
        // since the last checkpoint; the file itself is cut back to the
        // journal size limit when the WAL starts over.
        let pending = (pool.walIndex?.framesNotCheckpointed ?? 0) * (pool.configuration.connection.pageSize + 24)
        #expect(pending < 2 * Checkpointer.threshold)
        #expect(Self.walBytes(path) <= Connection.walSizeLimit + Checkpointer.threshold)
        #expect(try await store.check().isHealthy)
        // Asked for, the maintenance runs now: with nobody reading, the WAL file is emptied.
        await store.finishBackgroundWork()
        #expect(Self.walBytes(path) == 0)
    }
}
