import Foundation
import ServiceLifecycle
import Synchronization
import TesseraBackends
import TesseraHummingbird
import TesseraLayout
import TesseraServerSupport
import TesseraStore
import UnixSignals

/// SIGHUP: serve the store file now at `--db` (one moved over it with
/// `rename`) instead of the one open. The new file is opened first under a
/// name of its own (a hard link beside it), so that one that fails (not a
/// store, a newer schema, damaged) is refused with one line on stderr while
/// the old store keeps serving; then ``StoreSlot`` swaps them between requests.
final class StoreReloader: Service, Sendable {
    let path: String
    let slot: StoreSlot
    let executor: ThreadPoolExecutor
    /// The file served: a SIGHUP that finds the same file at the path reloads nothing.
    let served: Mutex<FileIdentity?>

    /// SIGHUP, trapped from the start: one arriving before serving begins waits here.
    let signals: UnixSignalsSequence

    init(path: String, slot: StoreSlot, executor: ThreadPoolExecutor) async {
        signals = await UnixSignalsSequence(trapping: .sighup)
        self.path = path
        self.slot = slot
        self.executor = executor
        served = Mutex(FileIdentity(path: path))
    }

    func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                try await reload()
                say("serving the store now at \(path.quotedPathForMessage)")
            } catch let refusal as Refusal {
                say("SIGHUP: \(refusal.message); still serving the store open before")
            } catch {
                say("SIGHUP: \(error)")
            }
        }
    }

    private func reload() async throws {
        guard let identity = FileIdentity(path: path) else { throw Refusal("no store file at \(path.quotedPathForMessage)") }
        guard identity != served.withLock({ $0 }) else { throw Refusal("the file at \(path.quotedPathForMessage) is the one served") }
        try await Self.check(path)
        try await slot.replace(drainLimit: .seconds(10)) { [path, executor] old in
            old.close()
            return try await ServerOptions.openStore(path, executor: executor)
        }
        served.withLock { $0 = identity }
    }

    /// Opens the store at `path` under a hard link's name and closes it: its
    /// `-wal` and `-shm` are then the link's, never the served store's.
    private static func check(_ path: String) async throws {
        let alias = "\(path).checking-\(getpid())"
        unlink(alias)
        guard link(path, alias) == 0 else {
            throw Refusal("cannot check the new store: linking \(alias.quotedPathForMessage) failed: \(String(cString: strerror(errno)))")
        }
        defer { unlink(alias) }
        do {
            let store = try await LayoutStore.open(db: alias, requireExisting: true)
            store.close()
        } catch let error as StoreError {
            throw Refusal("the new file at \(path.quotedPathForMessage) cannot be served: \(error.message)")
        }
    }

    private func say(_ line: String) {
        FileHandle.standardError.write(Data("tessera-server: \(line)\n".utf8))
    }

    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

/// A file's device and inode: which file a path names now.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
