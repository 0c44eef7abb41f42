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
            let pool = try DatabasePool(path: path)
            // A write's body that writes again on its thread would wait for itself.
            try pool.write { _ in try pool.write { _ in } }
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
