import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import SQLiteToolkit
import TesseraSQLite
import TesseraStore

/// `--name N`: a stored spec's name, read in NFC and checked by the rule for names.
struct SpecNameOption: ParsableArguments {
    @Option(help: "The stored spec's name.", transform: Spec.normalizedName)
    var name: String

    func validate() throws {
        try ArgumentCheck.specName(name, flag: "--name")
    }
}

/// `--db FILE`: an existing store, for commands that read or change one.
struct DatabaseOption: ParsableArguments {
    @Option(help: "The store, made by precompute: \(StoreArgument.kinds).")
    var db: String

    /// Opens the store; a missing file is an error, never a new empty store.
    func open() async throws -> LayoutStore {
        try await StoreFile.openExisting(db)
    }

    /// Opens the store read-only (see `StoreFile.openForReading(_:)`).
    func openForReading() async throws -> LayoutStore {
        try await StoreFile.openForReading(db)
    }
}

/// Opening store files. SQLite creates a file that is missing, so a
/// mistyped `--db` would leave an empty store behind and answer "no spec
/// named…": only commands that write a new store may create one.
enum StoreFile {
    /// Fails unless `path` is an existing file that may be a Tessera store
    /// (a file that is not one is refused untouched).
    private static func requireFile(_ path: String) async throws {
        try requireRegularFile(path)
        do {
            try await LayoutStore.requireExisting(db: path)
        } catch let error as StoreError where error.code == .notFound {
            throw CommandError("\(error.message): check the path (precompute creates a store)")
        } catch let error as StoreError {
            throw CommandError(error.message)
        }
    }

    /// Opens the store at `path`, which must already exist and be a store.
    static func openExisting(_ path: String, executor: (any BlockingExecutor)? = nil) async throws -> LayoutStore {
        try await requireFile(path)
        return try await open(path, executor: executor)
    }

    /// Opens the existing store at `path` read-only, for the commands that
    /// read (list, query, item, render, check): nothing is created,
    /// converted, migrated or left beside the file, and a file that is not
    /// a Tessera store is refused untouched. Every query loads a layout's
    /// whole directory, verified, before answering from it.
    static func openForReading(_ path: String) async throws -> LayoutStore {
        try await requireFile(path)
        return try await reportingErrors { try await LayoutStore.open(db: path, readOnly: true, loadsDirectoriesInline: true) }
    }

    /// The store at `path` and the fresh layout of the spec `name` at the
    /// extent `extent` gives for its axis, for a command that reads it.
    ///
    /// The store is opened read-only. When the layout is missing or stale,
    /// computing it writes: the store is opened again for writing (which
    /// also brings an older store to the current schema), the layout is
    /// computed and stored, the command says so on standard error, and that
    /// store is the one returned. A store that cannot be written answers
    /// only what it holds fresh.
    static func freshLayout(_ path: String, name: String, extent: ExtentOptions, command: String) async throws -> (LayoutStore, StoredLayout) {
        let reader = try await openForReading(path)
        let fresh = try await reportingErrors { () async throws -> StoredLayout? in
            let crossExtent = try extent.crossExtent(for: try await reader.requiredSpec(named: name).axis)
            return try await reader.layouts(name: name).first { $0.crossExtent == crossExtent && $0.state == .fresh }
        }
        if let fresh { return (reader, fresh) }
        guard isWritable(path) else {
            throw CommandError("the layout of \(name.quotedForMessage) is missing or stale, and \(path.quotedPathForMessage) cannot be written "
                + "(a read-only file or folder): compute it where the store can be written (tessera precompute)")
        }
        // The reader closed first: the writer, closing last, leaves one file.
        reader.close()
        let writer = try await openExisting(path)
        return (writer, try await writer.freshLayout(name: name, extent: extent, command: command))
    }

    /// Whether the file at `path` and its folder can be written (SQLite
    /// writes a `-wal` and a `-shm` file beside the store).
    private static func isWritable(_ path: String) -> Bool {
        // A server decides for itself; a refused write says why.
        if StoreLocation.isPostgresURL(path) { return true }
        let folder = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "." : folder, W_OK) == 0
    }

    /// Runs `body` on the store at `path`, creating the file when it is
    /// missing. When `body` fails on a file it created, the file is removed
    /// again: some spec errors only show up while laying out, after the
    /// store was opened, and they must not leave an empty store behind.
    /// `executor`: the store's threads for blocking work (its own by default).
    static func withStore<T>(
        creatingIfMissing path: String, executor: (any BlockingExecutor)? = nil, _ body: (LayoutStore) async throws -> T
    ) async throws -> T {
        // A PostgreSQL store is a schema: created when missing, and kept.
        // Closed before returning, not when released: a thread of the store's
        // may still hold it when the process exits, and a store closed is one file.
        func run(_ store: LayoutStore) async throws -> T {
            defer { store.close() }
            return try await body(store)
        }
        if StoreLocation.isPostgresURL(path) { return try await run(await open(path, executor: executor)) }
        if FileManager.default.fileExists(atPath: path) { return try await run(await openExisting(path, executor: executor)) }
        do {
            // Closed before it is removed.
            return try await run(await open(path, executor: executor))
        } catch {
            DatabaseFiles.remove(path)
            throw error
        }
    }

    /// Opens or creates the store at `path`.
    static func open(_ path: String, executor: (any BlockingExecutor)? = nil) async throws -> LayoutStore {
        try requireRegularFile(path)
        return try await reportingErrors { try await LayoutStore.open(db: path, executor: executor) }
    }

    /// Fails when `path` names a FIFO, a device, a directory or a socket,
    /// without opening it (SQLite would wait on a FIFO for a writer, and
    /// read a device without end). A missing file, and a URL, pass.
    static func requireRegularFile(_ path: String) throws {
        guard !StoreLocation.isPostgresURL(path), let kind = FileBytes.kind(at: path) else { return }
        throw CommandError("\(path.quotedPathForMessage) is \(kind), not a store file: --db takes a SQLite file or a postgres:// URL")
    }
}

/// Runs `body`, turning library errors into one clear line.
func reportingErrors<T>(file: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw commandError(error, file: file)
    }
}

/// Runs `body`, async, turning library errors into one clear line.
func reportingErrors<T>(file: String? = nil, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw commandError(error, file: file)
    }
}

/// A library error as one clear line; any other error as it is.
private func commandError(_ error: any Error, file: String?) -> any Error {
    switch error {
    case let error as SpecError:
        return file.map { CommandError.spec(error, file: $0) } ?? CommandError(error.description)
    case let error as StoreError:
        // A spec error names the file it came from, like the engine's own.
        if let file, error.code == .invalidSpec, let cause = error.cause as? SpecError { return CommandError.spec(cause, file: file) }
        return CommandError(error.description)
    case let error as SQLiteError:
        return CommandError(error.description)
    default:
        return error
    }
}
