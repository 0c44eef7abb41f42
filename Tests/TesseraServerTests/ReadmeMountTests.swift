import Foundation
import Hummingbird
import HummingbirdTesting
import TesseraStore
import Testing
import TesseraHummingbird
import TesseraSQLite

// Article: mount
/// An app of your own, with the layout cache mounted under /layouts.
func makeApp(storePath: String) throws -> some ApplicationProtocol {
    let store = try LayoutStore(path: storePath)
    let router = Router()
    router.get("/hello") { _, _ in "hello" }
    TesseraRoutes(store: store).register(on: router.group("layouts"))
    return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
}
// Article: end

// Article: serve
/// The same app, served as tessera-server serves: the store's blocking work
/// on `executor` (from `settings.withThreadPools`), every wait for a client
/// timed, at most `settings.maximumConnections` open.
func makeServedApp(storePath: String, settings: TesseraServerSettings, executor: ThreadPoolExecutor) throws -> some ApplicationProtocol {
    let store = try LayoutStore(path: storePath, executor: executor)
    let router = Router()
    router.get("/hello") { _, _ in "hello" }
    TesseraRoutes(store: store).register(on: router.group("layouts"))
    return settings.application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
}
// Article: end

/// The example of the TesseraHummingbird article on mounting the routes
/// (moved there from the README), held as written there.
@Suite("server: the mounting article's example")
struct ReadmeMountTests {
    /// The example between `// Article: NAME` and `// Article: end` in this file.
    static func example(_ name: String) throws -> String {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        return try #require(source.components(separatedBy: "// Article: \(name)\n").dropFirst().first?.components(separatedBy: "// Article: end").first)
    }

    static func article() throws -> String {
        try String(contentsOfFile: "\(ServerFixture.repository)/Sources/TesseraHummingbird/TesseraHummingbird.docc/MountingTheRoutes.md", encoding: .utf8)
    }

    @Test("is in the article as written here, and serves the routes under its prefix beside the app's own")
    func mount() async throws {
        let example = try Self.example("mount")
        #expect(try Self.article().contains("```swift\nimport Hummingbird\nimport TesseraHummingbird\nimport TesseraSQLite\nimport TesseraStore\n\n" + example + "```\n"))

        let fixture = try await ServerFixture()
        try await makeApp(storePath: fixture.path).test(.router) { client in
            #expect(try await client.execute(uri: "/hello", method: .get).text == "hello")
            let health = try await client.execute(uri: "/layouts/v1/health", method: .get)
            #expect(health.status == .ok)
            let visible = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get)
            #expect(visible.status == .ok && visible.headers[.eTag] != nil)
            let write = try await client.execute(uri: "/layouts/v1/feeds/feed", method: .delete)
            #expect(write.status == .forbidden)
            let tiles = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390/tiles", method: .get)
            #expect(tiles.status == .ok && tiles.text.contains("\"tiles\": \"revisions/"))
            let outside = try await client.execute(uri: "/v1/health", method: .get)
            #expect(outside.status == .notFound)
        }
    }

    @Test("a token in the configuration: a write without it or with another answers 401, with it 204")
    func writeAnswers() async throws {
        let fixture = try await ServerFixture()
        let router = Router()
        TesseraRoutes(store: fixture.store, configuration: ServerFixture.writable).register(on: router.group("layouts"))
        try await Application(router: router).test(.router) { client in
            let missing = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390", method: .delete)
            #expect(missing.status == .unauthorized && missing.headers[.wwwAuthenticate] == "Bearer realm=\"tessera\"")
            let wrong = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390", method: .delete, headers: [.authorization: "Bearer other"])
            #expect(wrong.status == .unauthorized)
            let right = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390", method: .delete, headers: ServerFixture.authorized)
            #expect(right.status == .noContent)
        }
    }

    @Test("the served app is in the article as written here, and serves on a socket with the settings' header timeout")
    func served() async throws {
        let example = try Self.example("serve")
        #expect(try Self.article().contains("```swift\n" + example + "```\n"))
        #expect(try Self.article().contains("TesseraServerSettings.bootstrap()"))
        let fixture = try await ServerFixture()
        var settings = TesseraServerSettings()
        settings.headerTimeout = .milliseconds(300)
        try await settings.withThreadPools { executor in
            try await makeServedApp(storePath: fixture.path, settings: settings, executor: executor).test(.live) { client in
                #expect(try await client.execute(uri: "/hello", method: .get).text == "hello")
                let visible = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get)
                #expect(visible.status == .ok && visible.text.contains("\"elements\""))
                // A head that never ends: 408 once the settings' header timeout has passed.
                let port = try #require(client.port)
                let answer = try await Task.detached {
                    let socket = try LoopbackSocket(port: port)
                    socket.send("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    return socket.read(for: 5)
                }.value
                #expect(answer.text.hasPrefix("HTTP/1.1 408") && answer.closed, "\(answer)")
            }
        }
    }
}
