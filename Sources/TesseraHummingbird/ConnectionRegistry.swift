import HummingbirdCore
import NIOCore
import Synchronization

/// The open connections, for `--max-connections`: when all are taken, the
/// one idle the longest (between requests, kept alive) is closed so that a
/// new one can be served, or, with none idle, the next to become idle;
/// meanwhile new connections wait in the listen backlog. Idle connections
/// therefore cannot keep a client with a request out.
final class ConnectionRegistry: Sendable {
    private struct State {
        /// Each open connection, and since when it waits for a request
        /// (nil while one is under way).
        var entries: [ObjectIdentifier: (channel: any Channel, idleSince: NIODeadline?)] = [:]
        /// All are taken and none was idle: the next to become idle is closed.
        var roomWanted = false
    }

    let maximum: Int
    private let state = Mutex(State())

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// A new connection, not idle until its watch says so.
    func register(_ channel: any Channel) -> Registration {
        let key = ObjectIdentifier(channel)
        state.withLock { $0.entries[key] = (channel, nil) }
        return Registration(registry: self, key: key)
    }

    /// Closes the connection idle the longest, or the next to become idle.
    func makeRoom() {
        let oldest = state.withLock { state -> (any Channel)? in
            let idle = state.entries.compactMap { key, entry in entry.idleSince.map { (key, entry.channel, $0) } }
            guard let (key, channel, _) = idle.min(by: { $0.2 < $1.2 }) else {
                state.roomWanted = true
                return nil
            }
            // Not chosen twice while it closes.
            state.entries[key]?.idleSince = nil
            return channel
        }
        oldest?.close(promise: nil)
    }

    /// One connection's entry.
    struct Registration: Sendable {
        let registry: ConnectionRegistry
        let key: ObjectIdentifier

        func setIdle(_ idle: Bool) {
            let closing = registry.state.withLock { state -> (any Channel)? in
                guard idle, state.roomWanted else {
                    state.entries[key]?.idleSince = idle ? .now() : nil
                    return nil
                }
                state.roomWanted = false
                return state.entries[key]?.channel
            }
            closing?.close(promise: nil)
        }

        func remove() {
            registry.state.withLock { state in
                state.entries[key] = nil
                state.roomWanted = false
            }
        }
    }

    /// Hummingbird's accept gate: accepts while fewer than ``maximum`` are
    /// open, else makes room and waits for a close.
    var gate: Gate { Gate(registry: self) }

    struct Gate: AvailableConnectionsDelegate {
        let registry: ConnectionRegistry
        private var open = 0

        init(registry: ConnectionRegistry) {
            self.registry = registry
        }

        mutating func connectionOpened() { open += 1 }
        mutating func connectionClosed() { open -= 1 }

        func isAcceptingNewConnections() -> Bool {
            guard open >= registry.maximum else { return true }
            registry.makeRoom()
            return false
        }
    }
}
