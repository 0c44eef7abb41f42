import Foundation
@testable import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("SQLite backend: calls that would wait for themselves trap with a message")
struct ReentrancyTests {
    @Test("a write started inside a write of the same store traps, saying so, instead of waiting forever")
    func writeInsideWrite() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let path = "/tmp/tessera-reentrancy-message-\(getpid()).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
            let store = try LayoutStore(path: path)
            let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": [{}]}]}"#)
            // A progress callback runs inside the write: writing from it (the
            // write's synchronous body, internal) would wait for itself.
            try await store.save(spec, as: "feed", crossExtents: [100]) { _ in _ = try? store.invalidate(name: "feed") }
        }
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("a write was started inside another write of the same store"))
    }

    @Test("a read inside a read on the same thread, with every reader in use, traps instead of waiting forever")
    func readInsideRead() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let path = "/tmp/tessera-reentrancy-read-\(getpid()).sqlite"
            defer { for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) } }
            let pool = try DatabasePool(path: path, configuration: DatabasePool.Configuration(maximumReaderCount: 1))
            try pool.read { _ in try pool.read { _ in } }
        }
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("a read was started inside another read on the same thread"))
    }
}
