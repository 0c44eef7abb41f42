import NIOCore

/// How long a connection may keep the server waiting, and how many may be
/// open at once: `--idle-timeout`, `--header-timeout`, `--body-timeout`,
/// `--max-connections`.
struct ConnectionLimits: Sendable {
    /// A kept-alive connection with no request under way is closed after
    /// this long without a byte.
    var idleTimeout: TimeAmount = .seconds(60)
    /// A request's head must arrive whole within this long of its first
    /// byte, else 408 and the connection is closed.
    var headerTimeout: TimeAmount = .seconds(10)
    /// A request's body must arrive whole within this long of its head,
    /// else 408 and the connection is closed.
    var bodyTimeout: TimeAmount = .seconds(60)
    /// The most connections open at once; at the limit the one idle the
    /// longest is closed for a new one, and with none idle new ones wait.
    var maximumConnections = 1024
    /// After the answer that ends a connection, what the client still sends
    /// is read and dropped for up to this long before the socket closes: a
    /// close with unread bytes would reset the connection and could destroy
    /// the answer before the client read it.
    var lingerTimeout: TimeAmount = .seconds(2)

}
