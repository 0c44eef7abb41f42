import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird

/// CORS (the HTTP API article, "Cross-origin reads"): the headers on every
/// answer of every route, preflights, `*`, and nothing without the flag;
/// over real HTTP connections.
@Suite("server: cross-origin reads (CORS)")
struct CrossOriginTests {
    static let allowed = "http://app.example"
    static let other = "http://other.example"

    /// Writes with the token `secret`, reads from `origins`.
    static func configuration(_ origins: [String]) throws -> TesseraServiceConfiguration {
        var configuration = ServerFixture.writable
        configuration.crossOriginAccess = try CrossOriginAccess(origins: origins)
        return configuration
    }

    /// One request of every route family, errors, a 304 and HEAD among them:
    /// the status each answers with, which the test checks too.
    static func exchanges(_ client: some TestClientProtocol, origin: String?) async throws -> [(String, HTTPResponse.Status, HTTPFields)] {
        var base: HTTPFields = [:]
        if let origin { base[.origin] = origin }
        let token = base + ServerFixture.authorized
        let layout = "/v1/feeds/feed/layouts/390"
        let manifest = try await client.execute(uri: layout + "/tiles", method: .get, headers: base)
        let decoded = try TileRoutesTests.manifest(manifest)
        let tag = manifest.headers[.eTag] ?? ""
        let visible = try await client.execute(uri: layout + "/visible?rect=0,0,390,844", method: .get, headers: base)
        let spec = ServerFixture.feed
        let requests: [(String, HTTPRequest.Method, String, HTTPFields, String?, HTTPResponse.Status)] = [
            ("health", .get, "/v1/health", base, nil, .ok),
            ("listing", .get, "/v1/feeds", base, nil, .ok),
            ("entry", .get, "/v1/feeds/feed", base, nil, .ok),
            ("spec", .get, "/v1/feeds/feed/spec", base, nil, .ok),
            ("visible", .get, layout + "/visible?rect=0,0,390,844", base, nil, .ok),
            ("visible 304", .get, layout + "/visible?rect=0,0,390,844", base + ([.ifNoneMatch: visible.headers[.eTag] ?? ""] as HTTPFields), nil, .notModified),
            ("rect", .get, layout + "/rect?rect=0,0,390,844&direction=rtl", base, nil, .ok),
            ("item", .get, layout + "/items/0/3", base, nil, .ok),
            ("HEAD item", .head, layout + "/items/0/3", base, nil, .ok),
            ("manifest 304", .get, layout + "/tiles", base + ([.ifNoneMatch: tag] as HTTPFields), nil, .notModified),
            ("tile", .get, layout + "/" + decoded.tiles.replacingOccurrences(of: "{index}", with: "0"), base, nil, .ok),
            ("column tile", .get, layout + "/" + decoded.columnTiles.replacingOccurrences(of: "{index}", with: "1"), base, nil, .ok),
            ("old revision's tile", .get, layout + "/revisions/0123456789abcdef/tiles/0", base, nil, .notFound),
            ("bad rect", .get, layout + "/visible?rect=0,0", base, nil, .badRequest),
            ("unknown spec", .get, "/v1/feeds/nope", base, nil, .notFound),
            ("unknown item", .get, layout + "/items/0/100000", base, nil, .notFound),
            ("405", .post, "/v1/health", base, nil, .methodNotAllowed),
            ("write without token", .post, "/v1/feeds/feed/sections/2/items", base, "{}\n", .unauthorized),
            ("append", .post, "/v1/feeds/feed/sections/2/items", token, "{}\n", .ok),
            ("resize", .patch, "/v1/feeds/feed/sections/1/items", token, "{\"item\": 3, \"aspectRatio\": 2}\n", .ok),
            ("put", .put, "/v1/feeds/home?extent=390", token, spec, .created),
            ("bad spec", .put, "/v1/feeds/bad", token, "{", .badRequest),
            ("delete layout", .delete, "/v1/feeds/home/layouts/390", token, nil, .noContent),
            ("delete spec", .delete, "/v1/feeds/home", token, nil, .noContent),
            ("OPTIONS without a preflight", .options, "/v1/feeds/feed", base, nil, .noContent),
        ]
        var answers: [(String, HTTPResponse.Status, HTTPFields)] = []
        for (name, method, uri, headers, body, status) in requests {
            let answer = try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            #expect(answer.status == status, "\(name): \(answer.status) \(answer.text)")
            answers.append((name, answer.status, answer.headers))
        }
        return answers
    }

    /// A CORS preflight of `uri` from `origin`.
    static func preflight(_ client: some TestClientProtocol, _ uri: String, origin: String, method: String = "PUT") async throws -> TestResponse {
        try await client.execute(uri: uri, method: .options, headers: [
            .origin: origin, .accessControlRequestMethod: method, .accessControlRequestHeaders: "authorization, content-type",
        ])
    }

    @Test("an allowed origin gets Access-Control-Allow-Origin, Vary: Origin and Expose-Headers: ETag on every answer of every route, errors and 304s included")
    func allowedOrigin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(try Self.configuration([Self.allowed, "https://b.example:8443"])).test(.live) { client in
            let answers = try await Self.exchanges(client, origin: Self.allowed)
            #expect(answers.count == 25)
            for (name, _, headers) in answers {
                #expect(headers[.accessControlAllowOrigin] == Self.allowed, "\(name)")
                #expect(headers[values: .vary].filter { $0 == "Origin" }.count == 1, "\(name): \(headers[values: .vary])")
                #expect(headers[.accessControlExposeHeaders] == "ETag", "\(name)")
                #expect(headers[.accessControlAllowCredentials] == nil, "\(name)")
            }
            // A route no path matches, answered by the server's router.
            let unknown = try await client.execute(uri: "/v2/nothing", method: .get, headers: [.origin: Self.allowed])
            #expect(unknown.status == .notFound && unknown.headers[.accessControlAllowOrigin] == Self.allowed)
            let metrics = try await client.execute(uri: "/metrics", method: .get, headers: [.origin: "https://b.example:8443"])
            #expect(metrics.status == .ok && metrics.headers[.accessControlAllowOrigin] == "https://b.example:8443")
        }
    }

    @Test("another origin, or none, gets no CORS header but Vary: Origin, and the same answers")
    func otherOrigin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(try Self.configuration([Self.allowed])).test(.live) { client in
            for origin in [Self.other, "http://app.example:8080", "https://app.example", nil] {
                for (name, _, headers) in try await Self.exchanges(client, origin: origin) {
                    #expect(headers[.accessControlAllowOrigin] == nil && headers[.accessControlExposeHeaders] == nil, "\(name), \(origin ?? "no origin")")
                    #expect(headers[values: .vary].filter { $0 == "Origin" }.count == 1, "\(name): \(headers[values: .vary])")
                }
            }
        }
    }

    @Test("a preflight from an allowed origin: 204 with the route's methods, the headers, Max-Age 600, no token; from another origin 403 problem+json")
    func preflights() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(try Self.configuration([Self.allowed])).test(.live) { client in
            for (uri, methods) in [
                ("/v1/feeds/feed", "GET, HEAD, PUT, DELETE"),
                ("/v1/feeds/feed/sections/0/items", "POST, PATCH"),
                ("/v1/feeds/feed/layouts/390/tiles", "GET, HEAD"),
                ("/v1/feeds/feed/layouts/390/revisions/r/columns/3", "GET, HEAD"),
                ("/metrics", "GET, HEAD"),
            ] {
                let answer = try await Self.preflight(client, uri, origin: Self.allowed)
                #expect(answer.status == .noContent, "\(uri): \(answer.text)")
                #expect(answer.headers[.accessControlAllowMethods] == methods, "\(uri)")
                #expect(answer.headers[.accessControlAllowHeaders] == "Authorization, Content-Type, If-None-Match")
                #expect(answer.headers[.accessControlMaxAge] == "600")
                #expect(answer.headers[.accessControlAllowOrigin] == Self.allowed && answer.headers[values: .vary] == ["Origin"])
                #expect(answer.headers[.accessControlAllowCredentials] == nil)
                #expect(answer.body.readableBytes == 0)

                let refused = try await Self.preflight(client, uri, origin: Self.other)
                #expect(refused.status == .forbidden, "\(uri)")
                #expect(refused.headers[.contentType] == "application/problem+json")
                #expect(refused.problem["detail"] as? String == "pages of the origin 'http://other.example' may not read this server's answers: it is not among the origins --cors-origin allows")
                #expect(refused.headers[.accessControlAllowOrigin] == nil && refused.headers[.accessControlAllowMethods] == nil)
            }
            // Without Access-Control-Request-Method it is no preflight: the plain OPTIONS answer.
            let plain = try await client.execute(uri: "/v1/feeds/feed", method: .options, headers: [.origin: Self.other])
            #expect(plain.status == .noContent && plain.headers[.allow] == "GET, HEAD, PUT, DELETE, OPTIONS")
            #expect(plain.headers[.accessControlAllowMethods] == nil)
        }
    }

    @Test("'*': Access-Control-Allow-Origin * on every answer, whatever the origin, without Vary; preflights from any origin")
    func anyOrigin() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(try Self.configuration(["*"])).test(.live) { client in
            for origin in [Self.other, nil] {
                for (name, _, headers) in try await Self.exchanges(client, origin: origin) {
                    #expect(headers[.accessControlAllowOrigin] == "*", "\(name)")
                    #expect(headers[.accessControlExposeHeaders] == "ETag", "\(name)")
                    #expect(headers[values: .vary].allSatisfy { !$0.contains("Origin") }, "\(name)")
                }
            }
            let answer = try await Self.preflight(client, "/v1/feeds/feed/sections/0/items", origin: "https://anywhere.example", method: "POST")
            #expect(answer.status == .noContent && answer.headers[.accessControlAllowMethods] == "POST, PATCH")
            #expect(answer.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test("without cross-origin access no answer carries a CORS header or Vary: Origin, and a preflight is a plain OPTIONS")
    func absent() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(ServerFixture.writable).test(.live) { client in
            for (name, _, headers) in try await Self.exchanges(client, origin: Self.allowed) {
                #expect(!headers.contains { $0.name.canonicalName.hasPrefix("access-control-") }, "\(name): \(headers)")
                #expect(headers[values: .vary].allSatisfy { !$0.contains("Origin") }, "\(name)")
            }
            let answer = try await Self.preflight(client, "/v1/feeds/feed", origin: Self.allowed)
            #expect(answer.status == .noContent && answer.headers[.allow] == "GET, HEAD, PUT, DELETE, OPTIONS")
            #expect(answer.headers[.accessControlAllowOrigin] == nil && answer.headers[.accessControlAllowMethods] == nil)
        }
    }

    @Test("origins are read as a browser sends them; what cannot be one is refused, saying why", arguments: [
        ("null", "an origin is scheme://host[:port]"),
        ("app.example", "an origin is scheme://host[:port]"),
        ("https://app.example/", "leave out the final '/'"),
        ("https://app.example/feeds", "no path, query or fragment"),
        ("https://app.example?x", "no path, query or fragment"),
        ("https://user@app.example", "no user name or password"),
        ("https://", "the host is empty"),
        ("https://app.example:0", "the port '0' is not a number from 1 to 65535"),
        ("https://app.example:99999", "the port '99999'"),
        ("https://app.example:", "the port ''"),
        ("https://a:b:c", "more than one ':'"),
        ("https://[::1", "no closing ']'"),
        ("https://bücher.example", "xn-- form"),
        ("1http://app.example", "is not a URL scheme"),
        ("*", ""),
    ])
    func validation(value: String, message: String) {
        let values = value == "*" ? ["*", Self.allowed] : [Self.allowed, value]
        do {
            _ = try CrossOriginAccess(origins: values)
            Issue.record("\(values) was taken")
        } catch {
            let expected = value == "*" ? "'*' allows every origin: give it alone" : message
            #expect(error.value == value && error.description.contains(expected), "\(error)")
        }
    }

    @Test("normalized: lowercase scheme and host, no default port; IPv6 in brackets")
    func normalization() throws {
        let access = try CrossOriginAccess(origins: ["HTTPS://App.Example:443", "http://LOCALHOST:80", "http://[::1]:8080", "http://127.0.0.1:3000"])
        for origin in ["https://app.example", "http://localhost", "http://[::1]:8080", "http://127.0.0.1:3000"] {
            #expect(access.allows(origin), "\(origin)")
        }
        for origin in ["https://App.Example", "https://app.example:443", "http://127.0.0.1:3001", "null"] {
            #expect(!access.allows(origin), "\(origin)")
        }
        #expect(try CrossOriginAccess(origins: ["*"]) == .anyOrigin && CrossOriginAccess.anyOrigin.allows("null"))
        #expect(try CrossOriginAccess(origins: []) == CrossOriginAccess.off && !CrossOriginAccess.off.allows(Self.allowed))
    }

    @Test("tessera-server --cors-origin: the headers on /metrics and unknown paths, in --help, bad values refused")
    func process() async throws {
        let fixture = try await ServerFixture()
        let server = try ServerProcessTests.Running(["--db", fixture.path, "--cors-origin", Self.allowed, "--cors-origin", "http://127.0.0.1:9", "--log-level", "warning"])
        defer { _ = server.stop() }
        for path in ["/metrics", "/nowhere", "/v1/feeds/feed/layouts/390/tiles"] {
            let answer = try ServerProcessTests.exchange(port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:9\r\nConnection: close\r\n\r\n")
            #expect(answer.contains("\r\nAccess-Control-Allow-Origin: http://127.0.0.1:9\r\n"), "\(path): \(answer.prefix(400))")
            #expect(answer.contains("\r\nAccess-Control-Expose-Headers: ETag\r\n") && answer.contains("\r\nVary: Origin\r\n"), "\(path)")
        }
        let help = try Executable.run("tessera-server", ["serve", "--help"])
        #expect(help.stdout.contains("--cors-origin <origin>"), "\(help.stdout)")
        for (value, message) in [("https://app.example/", "--cors-origin: 'https://app.example/' is not an origin: an origin has no path"), ("localhost:3000", "is not an origin")] {
            let output = try Executable.run("tessera-server", ["--db", fixture.path, "--port", "0", "--cors-origin", value])
            #expect(output.status != 0 && output.stderr.contains(message), "\(output.stderr)")
        }
    }
}
