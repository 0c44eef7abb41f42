import Foundation
import Hummingbird
import HummingbirdTesting
import Prometheus
import TesseraHummingbird
import TesseraServerSupport
import Testing

/// The HTTP API article names every route the server registers, with each
/// method the route takes.
@Suite("docs: the HTTP API article covers every route of the server")
struct HTTPAPIArticleTests {
    /// Values for a route's parameters, to ask it which methods it takes.
    static let sample = ["{name}": "feed", "{extent}": "390", "{section}": "0", "{item}": "0", "{revision}": "r", "{index}": "0"]

    /// Whether `text` holds `entry` not followed by more of a path.
    static func names(_ text: String, _ entry: String) -> Bool {
        var rest = text[...]
        while let range = rest.range(of: entry) {
            let next = rest[range.upperBound...].first
            if next.map({ !($0 == "/" || $0 == "{" || $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) ?? true { return true }
            rest = rest[range.upperBound...]
        }
        return false
    }

    @Test("every method and path of the server's router is in the article")
    func routes() async throws {
        let article = try String(
            contentsOfFile: "\(ServerFixture.repository)/Sources/TesseraHummingbird/TesseraHummingbird.docc/HTTPAPI.md", encoding: .utf8
        )
        let fixture = try await ServerFixture()
        let router = ServerRouter.make(store: fixture.store, configuration: .init(), registry: PrometheusCollectorRegistry())
        let paths = Set(router.routes.map(\.path.description)).sorted()
        #expect(paths.contains("/v1/feeds/{name}/layouts/{extent}/revisions/{revision}/columns/{index}"))
        #expect(paths.contains("/metrics"))
        try await Application(router: router).test(.router) { client in
            var checked = 0
            for path in paths {
                var uri = path
                for (parameter, value) in Self.sample { uri = uri.replacingOccurrences(of: parameter, with: value) }
                let options = try await client.execute(uri: uri, method: .options)
                #expect(options.status == .noContent, "OPTIONS \(uri)")
                let allow = options.headers[.allow] ?? ""
                let methods = allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "HEAD" && $0 != "OPTIONS" }
                #expect(!methods.isEmpty, "\(path) takes no method (Allow: \(allow))")
                for method in methods {
                    checked += 1
                    #expect(Self.names(article, "\(method) \(path)"), "HTTPAPI.md does not name \(method) \(path)")
                }
            }
            #expect(checked >= 15)
        }
    }

    @Test("a path is named only whole")
    func wholePaths() {
        #expect(Self.names("`GET /v1/feeds?limit=N`", "GET /v1/feeds"))
        #expect(!Self.names("`GET /v1/feeds/{name}`", "GET /v1/feeds"))
        #expect(Self.names("### GET /v1/feeds/{name}\n", "GET /v1/feeds/{name}"))
    }
}
