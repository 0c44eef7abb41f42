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

/// The example of the TesseraHummingbird article on mounting the routes
/// (moved there from the README), held as written there.
@Suite("server: the mounting article's example")
struct ReadmeMountTests {
    @Test("is in the article as written here, and serves the routes under its prefix beside the app's own")
    func mount() async throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let example = try #require(source.components(separatedBy: "// Article: mount\n").dropFirst().first?.components(separatedBy: "// Article: end").first)
        let article = try String(
            contentsOfFile: "\(ServerFixture.repository)/Sources/TesseraHummingbird/TesseraHummingbird.docc/MountingTheRoutes.md", encoding: .utf8
        )
        #expect(article.contains("```swift\nimport Hummingbird\nimport TesseraHummingbird\nimport TesseraSQLite\nimport TesseraStore\n\n" + example + "```\n"))

        let fixture = try await ServerFixture()
        try await makeApp(storePath: fixture.path).test(.router) { client in
            #expect(try await client.execute(uri: "/hello", method: .get).text == "hello")
            let health = try await client.execute(uri: "/layouts/v1/health", method: .get)
            #expect(health.status == .ok)
            let visible = try await client.execute(uri: "/layouts/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get)
            #expect(visible.status == .ok && visible.headers[.eTag] != nil)
            let write = try await client.execute(uri: "/layouts/v1/feeds/feed", method: .delete)
            #expect(write.status == .forbidden)
        }
    }
}
