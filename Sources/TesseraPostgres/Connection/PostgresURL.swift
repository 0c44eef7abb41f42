import TesseraLayout
import TesseraStore

/// A parsed `postgres://` URL. Its ``description`` leaves the password out,
/// so that it can appear in messages and logs.
package struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    package var user: String
    package var password: String?
    /// A host name or address, or a folder holding the server's Unix socket
    /// (a host that starts with `/`, percent-encoded in the authority or
    /// given as `?host=`).
    package var host: String
    package var port: Int
    package var database: String
    /// The PostgreSQL schema that holds the store's tables.
    package var schema: String
    /// How readers learn that another connection committed (`?freshness=`).
    package var freshness: Freshness

    package static let defaultSchema = "tessera"

    /// How a store's readers learn of commits made elsewhere.
    package enum Freshness: String, Sendable, CaseIterable {
        /// Every query reads the layout's row in its own snapshot: it sees
        /// every commit that finished before it began (one round trip).
        case snapshot
        /// Readers keep resolved layouts until the store's channel says a
        /// commit happened (LISTEN/NOTIFY): a warm query sends nothing, and
        /// sees another machine's commit once its notification arrived.
        case notified
    }

    /// The path of the Unix socket when ``host`` is a folder.
    package var unixSocketPath: String? {
        host.hasPrefix("/") ? "\(host)/.s.PGSQL.\(port)" : nil
    }

    package var description: String {
        var text = "postgres://\(user)@"
        text += host.hasPrefix("/") ? "\(Self.percentEncoded(host))" : (host.contains(":") ? "[\(host)]" : host)
        text += ":\(port)/\(database)"
        var parameters: [String] = []
        if schema != Self.defaultSchema { parameters.append("schema=\(schema)") }
        if freshness != .snapshot { parameters.append("freshness=\(freshness.rawValue)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    package init(parsing text: String) throws {
        func invalid(_ reason: String) -> StoreError {
            StoreError(.invalidArgument, "the PostgreSQL URL \(text.withPasswordRedacted.quotedForMessage) \(reason)")
        }
        guard let schemeEnd = text.range(of: "://") else { throw invalid("has no scheme") }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw invalid("names no database (postgres://user@host[:port]/dbname)")
        }
        let authority = rest[..<slash]
        let databaseText = rest[rest.index(after: slash)...]
        guard let at = authority.lastIndex(of: "@") else {
            throw invalid("names no user (postgres://user@host[:port]/dbname)")
        }
        let credentials = authority[..<at]
        var hostPort = authority[authority.index(after: at)...]
        if let colon = credentials.firstIndex(of: ":") {
            user = try Self.decoded(credentials[..<colon], invalid)
            password = try Self.decoded(credentials[credentials.index(after: colon)...], invalid)
        } else {
            user = try Self.decoded(credentials, invalid)
            password = nil
        }
        guard !user.isEmpty else { throw invalid("names no user (postgres://user@host[:port]/dbname)") }
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw invalid("has an unclosed [ in its host") }
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { throw invalid("has text after its host's ]") }
            hostPort = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            host = String(hostPort)
        } else if let colon = hostPort.lastIndex(of: ":") {
            portText = hostPort[hostPort.index(after: colon)...]
            host = try Self.decoded(hostPort[..<colon], invalid)
        } else {
            host = try Self.decoded(hostPort, invalid)
        }
        port = 5432
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw invalid("has the port \(String(portText).quotedForMessage); a port is a number from 1 to 65535")
            }
            port = value
        }
        database = try Self.decoded(databaseText, invalid)
        guard !database.isEmpty else { throw invalid("names no database (postgres://user@host[:port]/dbname)") }
        schema = Self.defaultSchema
        freshness = .snapshot
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = try Self.decoded(parts[0], invalid)
            let value = parts.count == 2 ? try Self.decoded(parts[1], invalid) : ""
            switch key {
            case "schema":
                guard Self.isPlainName(value) else {
                    throw invalid("has the schema \(value.quotedForMessage); a schema is 1 to 63 letters, digits or _, not starting with a digit")
                }
                schema = value
            case "host":
                host = value
            case "freshness":
                guard let mode = Freshness(rawValue: value) else {
                    throw invalid("has the freshness \(value.quotedForMessage); it is snapshot or notified")
                }
                freshness = mode
            default:
                throw invalid("has the parameter \(key.quotedForMessage); Tessera knows schema, host and freshness")
            }
        }
        guard !host.isEmpty else { throw invalid("names no host (postgres://user@host[:port]/dbname)") }
    }

    /// A schema name used unquoted in SQL: ASCII letters, digits and `_`.
    private static func isPlainName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (1...63).contains(name.utf8.count), !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    private static func decoded(_ text: Substring, _ invalid: (String) -> StoreError) throws -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex, utf8.index(after: high) != utf8.endIndex,
                      let value = UInt8(String(decoding: utf8[high...utf8.index(after: high)], as: UTF8.self), radix: 16)
                else { throw invalid("has a % not followed by two hexadecimal digits") }
                bytes.append(value)
                index = utf8.index(high, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw invalid("decodes to bytes that are not UTF-8") }
        return decoded
    }

    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: ":") {
                result += "%" + String(byte, radix: 16, uppercase: true)
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return result
    }
}
