import Locking
import Synchronization
import TesseraStore

/// The committed state of an in-memory store, shared by every handle on it
/// (``InMemoryStorage``) as a file is shared by the processes that open it.
///
/// - A read takes the committed tables (a value) under a short lock: it
///   sees them whole, and no later commit changes its copy.
/// - A write holds the writer lock for its whole transaction, so writes run
///   one at a time; it changes a private copy of the tables and publishes
///   it as the new committed state when its body returns, or drops it when
///   the body throws.
/// - Every commit bumps ``Committed/version``: the change counter, and the
///   exact name of the state a read sees.
package final class InMemoryDatabase: Sendable {
    /// A committed state and its number.
    package struct Committed: Sendable {
        package var tables: InMemoryTables
        /// Bumped by every commit, never reused.
        package var version: Int64
    }

    /// The name in messages and `LayoutStore.location`: `memory:` and a number.
    package let location: String
    private let committed = Mutex(Committed(tables: InMemoryTables(), version: 0))
    /// Passed by the write in progress (whose body may go on on another thread).
    package let writer = AsyncGate(width: 1)

    private static let count = Atomic<Int>(0)

    /// A new, empty database.
    package init() {
        location = "memory:\(Self.count.add(1, ordering: .relaxed).newValue)"
    }

    /// The committed state now.
    package func snapshot() -> Committed {
        committed.withLock { $0 }
    }

    /// The version of the committed state now.
    var committedVersion: Int64 {
        committed.withLock { $0.version }
    }

    /// The tag of the state of `version`, under which its readers share the
    /// layouts they resolve.
    static func tag(_ version: Int64) -> SnapshotTag {
        SnapshotTag(words: [UInt64(bitPattern: version)])
    }

    /// Runs `body` on the committed state while holding the writer lock,
    /// and commits the tables it returns.
    package func write(_ body: (Committed) async throws -> InMemoryTables) async throws {
        try await writer.pass { commit(try await body(snapshot())) }
    }

    /// Publishes `tables` as the next committed state; the caller holds ``writer``.
    package func commit(_ tables: InMemoryTables) {
        committed.withLock { state in
            state = Committed(tables: tables, version: state.version + 1)
        }
    }
}
