import ArgumentParser
import Foundation
import TesseraLayout
import TesseraSQLite

/// `--db FILE`: an existing store, for commands that read or change one.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The store file (SQLite), made by precompute.")
    var db: String

    /// Opens the store; a missing file is an error, never a new empty store.
    func open() throws -> LayoutStore {
        try StoreFile.openExisting(db)
    }
}

/// Opening store files. SQLite creates a file that is missing, so a
/// mistyped `--db` would leave an empty store behind and answer "no spec
/// named…": only commands that write a new store may create one.
enum StoreFile {
    /// Opens the store at `path`, which must already exist.
    static func openExisting(_ path: String) throws -> LayoutStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandError("no store at '\(path)': check the path (precompute creates a store)")
        }
        guard !isDirectory.boolValue else { throw CommandError("'\(path)' is a directory, not a store file") }
        return try open(path)
    }

    /// Runs `body` on the store at `path`, creating the file when it is
    /// missing. When `body` fails on a file it created, the file is removed
    /// again: some spec errors only show up while laying out, after the
    /// store was opened, and they must not leave an empty store behind.
    static func withStore<T>(creatingIfMissing path: String, _ body: (LayoutStore) throws -> T) throws -> T {
        if FileManager.default.fileExists(atPath: path) { return try body(openExisting(path)) }
        do {
            // The store is released when `body` returns, closing the file before it is removed.
            return try body(open(path))
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }

    /// Opens or creates the store at `path`.
    static func open(_ path: String) throws -> LayoutStore {
        try reportingErrors { try LayoutStore(path: path) }
    }
}

/// Runs `body`, turning library errors into one clear line.
func reportingErrors<T>(file: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as SpecError {
        throw file.map { CommandError.spec(error, file: $0) } ?? CommandError(error.description)
    } catch let error as StoreError {
        // A spec error names the file it came from, like the engine's own.
        if let file, error.code == .invalidSpec, let cause = error.cause as? SpecError { throw CommandError.spec(cause, file: file) }
        throw CommandError(error.description)
    } catch let error as SQLiteError {
        throw CommandError(error.description)
    }
}
