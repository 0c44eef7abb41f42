import Locking
import Dispatch
import NIOCore
import PostgresNIO
import Synchronization
import TesseraStore

/// A connection of its own listening on the store's channel, where every
/// commit that changes the store's rows is announced (schema version 2's
/// triggers): it counts the commits it hears of, so that readers keep the
/// layouts they resolved until one happens (`?freshness=notified`).
///
/// While the connection is lost, ``epoch`` is nil: readers resolve every
/// layout in their own snapshot again, as with `freshness=snapshot`. It is
/// opened again in the background, after 1 s, then twice as long after
/// each failure (at most 30 s), by a task on threads of its own
/// (``reconnecting``): an application that blocks every thread of Swift
/// concurrency's cooperative pool does not keep it from coming back.
final class ChangeListener: Sendable {
    /// Where every listener of the process reconnects: its steps are short
    /// (a connection, a LISTEN), never Swift concurrency's pool.
    private static let reconnecting = StoreThreads(threads: 1, backgroundThreads: 1)

    private let url: PostgresURL
    private let eventLoop: any EventLoop
    private let channel: String
    private let session: Locked<PostgresSession?>
    /// Bumped by every notification, every commit of this process's
    /// writer, and every loss and return of the connection.
    private let count = Atomic<Int64>(0)
    private let listening = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)

    /// Connects and listens; `unsupported` where PostgreSQL refuses LISTEN
    /// (a hot standby).
    init(url: PostgresURL, eventLoop: any EventLoop) async throws {
        self.url = url
        self.eventLoop = eventLoop
        let first = try await PostgresSession.connect(to: url, on: eventLoop, id: 0)
        do {
            // The channel the triggers notify: one per store, whatever its schema's name.
            guard let channel = try await first.answering({ session in
                try session.rows("SELECT 'tessera_' || oid::text FROM pg_namespace WHERE nspname = $1", .of(url.schema)).first.map { try $0.text(0) }
            }) else {
                throw StoreError(.notFound, "no store at \(url.description.quotedForMessage)", store: url.description)
            }
            self.channel = channel
        } catch {
            first.close()
            throw error
        }
        session = Locked(first)
        do {
            try await listen(on: first)
        } catch let error as StoreError {
            first.close()
            throw StoreError(
                .unsupported,
                "\(url.description.quotedForMessage) cannot LISTEN for commits (a hot standby cannot); open it with freshness=snapshot",
                store: url.description, cause: error
            )
        }
    }

    /// Listens on `connected`, and watches for its end.
    private func listen(on connected: PostgresSession) async throws {
        // The handler first, then LISTEN: no notification after LISTEN is missed.
        connected.connection.addListener(channel: channel) { [weak self] _, _ in self?.committed() }
        try await connected.run("LISTEN \(channel)")
        listening.store(true, ordering: .sequentiallyConsistent)
        connected.connection.closeFuture.whenComplete { [weak self] _ in self?.lost(after: 1) }
    }

    /// The connection ended: readers stop trusting the count, and a new
    /// connection is tried `delay` seconds later.
    private func lost(after delay: Double) {
        listening.store(false, ordering: .sequentiallyConsistent)
        committed()
        guard !closed.load(ordering: .sequentiallyConsistent) else { return }
        Task(executorPreference: Self.reconnecting) { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            guard let self, !self.closed.load(ordering: .sequentiallyConsistent) else { return }
            do {
                let connected = try await PostgresSession.connect(to: url, on: eventLoop, id: 0)
                session.withLock { $0 = connected }
                // Commits made while nobody listened: every reader resolves again.
                committed()
                do {
                    try await listen(on: connected)
                } catch {
                    connected.close()
                    lost(after: min(30, delay * 2))
                }
            } catch {
                lost(after: min(30, delay * 2))
            }
        }
    }

    /// A number that changes with every commit heard of; nil while not listening.
    var epoch: Int64? {
        guard listening.load(ordering: .sequentiallyConsistent) else { return nil }
        return count.load(ordering: .sequentiallyConsistent)
    }

    /// Counts a commit: one heard of, or one of this process (heard of
    /// again later, harmlessly).
    func committed() {
        count.add(1, ordering: .sequentiallyConsistent)
    }

    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        session.withLock { $0 }?.close()
    }
}
