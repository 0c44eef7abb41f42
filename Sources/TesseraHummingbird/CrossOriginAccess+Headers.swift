import Hummingbird

/// The CORS headers of answers and the answers to preflights.
extension CrossOriginAccess {
    /// The request headers a preflight may ask for: the token, a write's body type, revalidation.
    static let allowedHeaders = "Authorization, Content-Type, If-None-Match"
    /// Seconds a browser may keep a preflight's answer.
    static let maximumAge = "600"

    /// Adds to `headers` what an answer to a request from `origin` (its
    /// `Origin`, nil without one) carries.
    package func addHeaders(to headers: inout HTTPFields, origin: String?) {
        switch allowed {
        case .none:
            return
        case .any:
            // Whatever the request: a shared cache may give this answer to any page.
            headers[.accessControlAllowOrigin] = "*"
        case .only:
            // On every answer, allowed or not, so that a shared cache never
            // gives one origin's answer to another.
            headers.append(.init(name: .vary, value: "Origin"))
            guard let origin, allows(origin) else { return }
            headers[.accessControlAllowOrigin] = origin
        }
        headers[.accessControlExposeHeaders] = "ETag"
    }

    /// The answer to `request` when it is a preflight (`OPTIONS` with
    /// `Origin` and `Access-Control-Request-Method`) of a route taking
    /// `methods`; nil for any other request or without cross-origin reads.
    ///
    /// - Throws: ``Problem`` (403) when the origin is not allowed.
    package func preflight(_ request: Request, methods: [HTTPRequest.Method], allow: String) throws(Problem) -> Response? {
        guard allowed != .none, request.method == .options, let origin = request.headers[.origin],
              request.headers[.accessControlRequestMethod] != nil
        else { return nil }
        guard allows(origin) else {
            throw Problem(.forbidden, "pages of the origin \(Self.quoted(origin)) may not read this server's answers: it is not among the origins --cors-origin allows")
        }
        return Response(status: .noContent, headers: [
            .allow: allow,
            .accessControlAllowMethods: methods.map(\.rawValue).joined(separator: ", "),
            .accessControlAllowHeaders: Self.allowedHeaders,
            .accessControlMaxAge: Self.maximumAge,
        ])
    }

    /// `origin` for a message, cut short when long.
    private static func quoted(_ origin: String) -> String {
        origin.utf8.count <= maximumOriginLength ? "'\(origin)'" : "'\(origin.prefix(maximumOriginLength))…'"
    }
}
