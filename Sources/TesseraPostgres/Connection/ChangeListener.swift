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
/// layout in their own snapshot again, as with `freshness=snapshot`.
final class ChangeListener: Sendable {
    private let session: PostgresSession
    /// Bumped by every notification, every commit of this process's
    /// writer, and the end of the connection.
    private let count = Atomic<Int64>(0)
    private let listening = Atomic<Bool>(false)

    /// Connects and listens; `unsupported` where PostgreSQL refuses LISTEN
    /// (a hot standby).
    init(url: PostgresURL, eventLoop: any EventLoop) throws {
        session = try PostgresSession.connect(to: url, on: eventLoop, id: 0)
        do {
            // The channel the triggers notify: one per store, whatever its schema's name.
            guard let channel = try session.rows(
                "SELECT 'tessera_' || oid::text FROM pg_namespace WHERE nspname = $1", .of(url.schema)
            ).first.map({ try $0.text(0) }) else {
                throw StoreError(.notFound, "no store at \(url.description.quotedForMessage)", store: url.description)
            }
            // The handler first, then LISTEN: no notification after LISTEN is missed.
            session.connection.addListener(channel: channel) { [weak self] _, _ in self?.committed() }
            do {
                try session.query("LISTEN \(channel)")
            } catch let error as StoreError {
                throw StoreError(
                    .unsupported,
                    "\(url.description.quotedForMessage) cannot LISTEN for commits (a hot standby cannot); open it with freshness=snapshot",
                    store: url.description, cause: error
                )
            }
            listening.store(true, ordering: .sequentiallyConsistent)
            session.connection.closeFuture.whenComplete { [weak self] _ in
                self?.listening.store(false, ordering: .sequentiallyConsistent)
                self?.committed()
            }
        } catch {
            session.close()
            throw error
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
        session.close()
    }
}
