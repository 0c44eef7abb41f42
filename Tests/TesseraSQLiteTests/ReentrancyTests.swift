import Foundation
@testable import TesseraStore
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("SQLite backend: calls that would wait for themselves trap with a message")
struct ReentrancyTests {
    /// The store file an exit test of `kind` makes, named after the test's process.
    static func path(_ kind: String, process: pid_t) -> String {
        NSTemporaryDirectory() + "tessera-reentrancy-\(kind)-\(process).sqlite"
    }

    static func remove(_ path: String) {
        DatabaseFiles.remove(path)
    }

    @Test("a write started inside a write of the same store traps, saying so, instead of waiting forever")
    func writeInsideWrite() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            // Named after this test's process (the exit test's parent), which
            // removes the files: the trap ends this process before a defer runs.
            let path = Self.path("message", process: getppid())
            let pool = try DatabasePool(path: path)
            // A write's body that writes again on its thread would wait for itself.
            try pool.write { _ in try pool.write { _ in } }
        }
        Self.remove(Self.path("message", process: getpid()))
        let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("a write was started inside another write of the same store"))
    }
}
