import Foundation
import TesseraStore
import Testing
@testable import TesseraSQLite

/// Opening a path that is no regular file is refused by its kind, before
/// anything opens it: a FIFO's open would wait for a writer forever.
@Suite("SQLite backend: a FIFO or a folder is refused by its kind", .timeLimit(.minutes(1)))
struct StoreKindTests {
    @Test("LayoutStore(path:), read-only or not, refuses a FIFO and a folder with notAStore")
    func kinds() throws {
        let directory = try TemporaryDirectory("kinds")
        let fifo = directory.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(fifo, "a FIFO"), (directory.path, "a directory")] {
            for readOnly in [false, true] {
                let error = #expect(throws: StoreError.self) { try LayoutStore(path: path, readOnly: readOnly) }
                #expect(error?.code == .notAStore, "\(path) readOnly \(readOnly): \(String(describing: error))")
                #expect(error?.message.contains("is \(kind), not a store file") == true, "\(String(describing: error))")
            }
        }
    }
}
