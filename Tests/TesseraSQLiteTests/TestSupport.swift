import Foundation
@testable import TesseraSQLite
import TesseraStore

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

/// The bytes of the file at `path`.
func fileBytes(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Opens an in-memory connection (with the usual Tessera settings).
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
