import Foundation
@testable import SQLiteToolkit
import Testing

@Suite("SQLite backend: a database's files, removed together")
struct DatabaseFilesTests {
    @Test("removing a database removes it, its journal, log and index, and no other file beside it")
    func removesItsFilesOnly() throws {
        let directory = try TemporaryDirectory("files")
        let path = directory.file("store.sqlite")
        let pool = try DatabasePool(path: path)
        try pool.write { try $0.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        // A journal left by another program, and files whose names only begin alike.
        let others = [directory.file("store.sqlite2"), directory.file("store.sqlite-other"), directory.file("store")]
        for file in [path + "-journal"] + others { #expect(FileManager.default.createFile(atPath: file, contents: Data([1]))) }
        #expect(DatabaseFiles.paths(of: path) == [path, path + "-journal", path + "-wal", path + "-shm"])
        #expect(DatabaseFiles.paths(of: path).allSatisfy { FileManager.default.fileExists(atPath: $0) })
        pool.close()

        DatabaseFiles.remove(path)
        #expect(DatabaseFiles.paths(of: path).allSatisfy { !FileManager.default.fileExists(atPath: $0) })
        #expect(others.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        // Nothing there to remove: no error, nothing else touched.
        DatabaseFiles.remove(path)
        #expect(others.allSatisfy { FileManager.default.fileExists(atPath: $0) })
    }
}
