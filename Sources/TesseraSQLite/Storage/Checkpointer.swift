import Locking
import SQLiteToolkit
import Dispatch
import Synchronization
import TesseraStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies the WAL into the database file in the background once commits
/// left more than ``threshold`` of it not yet copied, never waiting for
/// anyone (SQLite's own checkpoint at commit, which copies on the writer's
/// thread, is off): readers then read pages in place through
/// the memory map instead of looking each one up in the WAL (a query took
/// twice as long before), and the WAL starts over.
///
/// A write never waits for a checkpoint, and a checkpoint never waits for a
/// reader or a writer, ours or another process's:
/// - PASSIVE copies every frame no reader still needs, taking no lock that
///   a writer or a reader waits for;
/// - then, only when everything was copied, TRUNCATE resets the WAL file to
///   zero bytes, on a connection whose busy timeout is 0: when anybody reads
///   or writes at that moment it gives up at once, and the next write starts
///   the WAL over from its beginning anyway (SQLite does so once every frame
///   is copied), with `journal_size_limit` shrinking the file back.
///
/// So the WAL grows by what is written between two checkpoints, plus what
/// readers of other processes still need while they hold old snapshots
/// (ours give theirs up for the checkpoint).
final class Checkpointer: Sendable {
    /// A commit that leaves the WAL at least this large (4 MiB, about 100k
    /// cells) asks for a checkpoint; smaller ones leave it to a later commit.
    static let threshold = 4 << 20

    private let path: String
    private let pool: DatabasePool
    private let queue = DispatchQueue(label: "tessera checkpoint")
    private let scheduled = Atomic<Bool>(false)
    /// The connection checkpoints run on, opened on first use, used only on `queue`.
    private let connection = Locked<Connection?>(nil)
    /// Set by `close()`: no checkpoint runs after it.
    private let closed = Atomic<Bool>(false)
    /// Checkpoints run, and those that reset the WAL file (for tests).
    private let counts = Locked((passive: 0, truncated: 0))

    init(path: String, pool: DatabasePool) {
        self.path = path
        self.pool = pool
    }

    /// After every commit: a checkpoint when the WAL holds more than the
    /// threshold not yet copied (read from the mapped WAL index, else the
    /// WAL file's size). SQLite's own checkpoints at commit are off.
    func didCommit() {
        let pending: Int
        if let walIndex = pool.walIndex {
            pending = walIndex.framesNotCheckpointed * (pool.configuration.connection.pageSize + 24)
        } else {
            var info = stat()
            pending = stat(path + "-wal", &info) == 0 ? Int(info.st_size) : 0
        }
        if pending >= Self.threshold { schedule() }
    }

    /// Asks for a checkpoint soon; returns at once. Requests made while one
    /// is pending become that one.
    func schedule() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            scheduled.store(false, ordering: .releasing)
            run()
        }
    }

    /// Waits for the checkpoints scheduled so far (for tests and closing).
    func drain() {
        queue.sync {}
    }

    /// Waits for the checkpoints scheduled so far and closes the connection
    /// they ran on, for good: the store's writer, closing after it, is
    /// then the last connection of this process.
    func close() {
        queue.sync {
            connection.withLock { connection in
                closed.store(true, ordering: .releasing)
                connection?.close()
                connection = nil
            }
        }
    }

    var statistics: (passive: Int, truncated: Int) { counts.withLock { $0 } }

    private func run() {
        connection.withLock { connection in
            guard !closed.load(ordering: .acquiring) else { return }
            if connection == nil {
                connection = try? Connection(path: path, mode: .readWriteCreate, options: Connection.Options(busyTimeout: 0))
            }
            guard let connection else { return }
            // Our readers give up their kept snapshots meanwhile: they would
            // keep the checkpoint from copying or resetting.
            pool.withoutHeldSnapshots {
                guard let passive = try? Self.checkpoint("PASSIVE", on: connection) else { return }
                counts.withLock { $0.passive += 1 }
                guard passive.busy == 0, passive.copied == passive.logged,
                      let truncate = try? Self.checkpoint("TRUNCATE", on: connection), truncate.busy == 0 else { return }
                counts.withLock { $0.truncated += 1 }
            }
        }
    }

    private static func checkpoint(_ mode: String, on connection: Connection) throws -> (busy: Int, logged: Int, copied: Int) {
        let statement = try connection.prepare("PRAGMA wal_checkpoint(\(mode))")
        guard try statement.step() else { return (1, 0, 0) }
        return (statement.int(at: 0), statement.int(at: 1), statement.int(at: 2))
    }
}
