/// Which web pages of other origins may read the routes' answers (CORS, the
/// Fetch standard; `tessera-server --cors-origin`). Without it no CORS
/// header is sent, and browsers refuse the answers to pages of other origins.
///
/// ```swift
/// var configuration = TesseraServiceConfiguration()
/// configuration.crossOriginAccess = try CrossOriginAccess(origins: ["https://app.example.com"])
/// ```
///
/// Allowed origins never get credentials (cookies): writes use the bearer token.
public struct CrossOriginAccess: Sendable, Hashable {
    enum Allowed: Sendable, Hashable {
        case none
        case any
        case only(Set<String>)
    }

    let allowed: Allowed

    /// No cross-origin reads: no CORS header on any answer (the default).
    public static let off = CrossOriginAccess(allowed: .none)
    /// Every origin (`--cors-origin '*'`): `Access-Control-Allow-Origin: *`
    /// without `Vary: Origin`, so that shared caches keep one copy.
    public static let anyOrigin = CrossOriginAccess(allowed: .any)

    private init(allowed: Allowed) {
        self.allowed = allowed
    }

    /// The origins `origins` names, each `scheme://host[:port]` as a browser
    /// sends it in `Origin` (scheme and host compared in lowercase, a
    /// scheme's default port left out), or `["*"]` for every origin; none
    /// for no cross-origin reads.
    ///
    /// - Throws: ``InvalidOrigin`` naming the value and what is wrong with it.
    public init(origins: [String]) throws(InvalidOrigin) {
        if origins.contains("*") {
            guard origins.count == 1 else { throw InvalidOrigin(value: "*", reason: "'*' allows every origin: give it alone, not with other origins") }
            self.init(allowed: .any)
        } else if origins.isEmpty {
            self.init(allowed: .none)
        } else {
            var set = Set<String>()
            for origin in origins { set.insert(try Self.normalized(origin)) }
            self.init(allowed: .only(set))
        }
    }

    /// Whether a page of `origin` (a request's `Origin`) may read the answers.
    public func allows(_ origin: String) -> Bool {
        switch allowed {
        case .none: false
        case .any: true
        case .only(let origins): origins.contains(origin)
        }
    }

    /// Why a value cannot be an allowed origin.
    public struct InvalidOrigin: Error, Sendable, Hashable, CustomStringConvertible {
        /// The value as given.
        public var value: String
        /// What is wrong with it.
        public var reason: String

        public var description: String { "'\(value)' is not an origin: \(reason)" }
    }
}

extension CrossOriginAccess {
    /// The longest origin taken: a host name has at most 253 characters.
    static let maximumOriginLength = 300

    /// `origin` as a browser serializes it: lowercase scheme and host, no default port.
    static func normalized(_ origin: String) throws(InvalidOrigin) -> String {
        func invalid(_ reason: String) -> InvalidOrigin { InvalidOrigin(value: origin, reason: reason) }
        guard origin.utf8.count <= maximumOriginLength else { throw invalid("longer than \(maximumOriginLength) characters") }
        guard let separator = origin.range(of: "://") else { throw invalid("an origin is scheme://host[:port] (such as https://app.example.com) or '*'") }
        let scheme = origin[..<separator.lowerBound].lowercased()
        var rest = Substring(origin[separator.upperBound...])
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) })
        else { throw invalid("the scheme '\(scheme)' is not a URL scheme (letters, digits, '+', '.', '-', starting with a letter)") }
        if rest.hasSuffix("/"), !rest.dropLast().contains("/") { throw invalid("an origin has no path, not even '/': leave out the final '/'") }
        guard !rest.contains(where: { "/?#".contains($0) }) else { throw invalid("an origin has no path, query or fragment") }
        guard !rest.contains("@") else { throw invalid("an origin has no user name or password") }
        let host: Substring
        let port: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw invalid("the IPv6 address has no closing ']'") }
            host = rest[...close]
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw invalid("only ':port' may follow the IPv6 address") }
            port = rest.isEmpty ? nil : rest.dropFirst()
            guard host.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.count > 2 else {
                throw invalid("'\(host)' is not an IPv6 address")
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw invalid("the host has more than one ':' (an IPv6 address goes in brackets)") }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { throw invalid("the host is empty") }
            guard host.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "." }) else {
                throw invalid("the host '\(host)' has a character other than ASCII letters, digits, '-' and '.' (write an international name in its xn-- form)")
            }
        }
        var text = scheme + "://" + host.lowercased()
        if let port {
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), (1...65535).contains(number), !port.hasPrefix("0") else {
                throw invalid("the port '\(port)' is not a number from 1 to 65535")
            }
            if !((scheme == "http" && number == 80) || (scheme == "https" && number == 443)) { text += ":\(number)" }
        }
        return text
    }
}
