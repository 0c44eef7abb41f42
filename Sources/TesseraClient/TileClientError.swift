import Foundation

/// Why a ``TileClient`` could not answer: the URL it read and what was
/// wrong with what came back.
public struct TileClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable, Hashable {
        /// No answer: the connection failed, timed out or was cancelled.
        case transport(String)
        /// An answer with a status other than the one expected (a tile's
        /// 404 once the client has followed the current revision and
        /// retried).
        case status(Int)
        /// A body longer than the configured limit (bytes).
        case bodyTooLarge(limit: Int)
        /// A body that is not JSON: where and why.
        case invalidJSON(String)
        /// JSON that is not a manifest or tile of the contract, or one
        /// whose numbers make no sense: the member and why.
        case invalidContent(String)
    }

    /// The manifest's or the tile's URL.
    public var url: URL
    /// What was wrong.
    public var reason: Reason

    /// An error reading `url`.
    public init(url: URL, reason: Reason) {
        self.url = url
        self.reason = reason
    }

    public var description: String {
        let what: String = switch reason {
        case .transport(let message): "no answer: \(message)"
        case .status(let status): "the answer's status is \(status)"
        case .bodyTooLarge(let limit): "the body is longer than the limit of \(limit) bytes"
        case .invalidJSON(let message): "the body is not JSON: \(message)"
        case .invalidContent(let message): message
        }
        return "\(url.absoluteString): \(what)"
    }
}
