import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout

/// `direction=rtl` on the read routes of a layout: the same bytes as the
/// CLI's `--rtl`; a bad direction is a 400 that names the parameter.
@Suite("server: direction=rtl")
struct RightToLeftRoutesTests {
    @Test("visible, rect and item with direction=rtl equal `tessera query --rtl` and `tessera item --rtl`", arguments: [
        "0,0,390,844", "0,1500,390,844", "-20,-50,100,100", "300,700,90,400",
    ])
    func answers(rect: String) async throws {
        let fixture = try await ServerFixture()
        let base = ["--db", fixture.path, "--name", "feed", "--width", "390", "--format", "json", "--rtl"]
        let visible = try Executable.run("tessera", ["query"] + base + ["--viewport", rect])
        let inRect = try Executable.run("tessera", ["query"] + base + ["--rect", rect])
        let item = try Executable.run("tessera", ["item"] + base + ["--section", "1", "--item", "7"])
        let leftToRight = try Executable.run("tessera", ["item", "--db", fixture.path, "--name", "feed", "--width", "390", "--format", "json",
                                                         "--section", "1", "--item", "7"])
        #expect(visible.status == 0 && inRect.status == 0 && item.status == 0)
        #expect(item.stdout != leftToRight.stdout, "the item is mirrored")
        try await fixture.application().test(.router) { client in
            let answer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=\(rect)&direction=rtl", method: .get)
            #expect(answer.status == .ok && answer.text == visible.stdout)
            let rectAnswer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?direction=rtl&rect=\(rect)", method: .get)
            #expect(rectAnswer.status == .ok && rectAnswer.text == inRect.stdout)
            let itemAnswer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/items/1/7?direction=rtl", method: .get)
            #expect(itemAnswer.status == .ok && itemAnswer.text == item.stdout)
            let explicit = try await client.execute(uri: "/v1/feeds/feed/layouts/390/items/1/7?direction=ltr", method: .get)
            #expect(explicit.status == .ok && explicit.text == leftToRight.stdout)
        }
    }

    @Test("a bad or repeated direction is a 400 naming the parameter", arguments: [
        ("direction=RTL", "direction=\"RTL\": must be ltr or rtl"),
        ("direction=", "direction=\"\": must be ltr or rtl"),
        ("direction=rtl&direction=ltr", "give one direction=ltr or direction=rtl, not 2"),
    ])
    func badDirection(query: String, detail: String) async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for route in ["visible?rect=0,0,390,844&", "rect?rect=0,0,390,844&", "items/1/7?"] {
                let response = try await client.execute(uri: "/v1/feeds/feed/layouts/390/\(route)\(query)", method: .get)
                #expect(response.status == .badRequest, "\(route)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.problem["detail"] as? String == detail, "\(route)")
            }
        }
    }

    @Test("the tessera-server process answers direction=rtl as the CLI")
    func process() async throws {
        let fixture = try await ServerFixture()
        let server = try ServerProcessTests.Running(["--db", fixture.path, "--log-level", "warning"])
        defer { _ = server.stop() }
        let cli = try Executable.run("tessera", ["query", "--db", fixture.path, "--name", "feed", "--width", "390", "--viewport", "0,700,390,844",
                                                 "--rtl", "--format", "json"])
        let visible = try ServerProcessTests.get(port: server.port, "/v1/feeds/feed/layouts/390/visible?rect=0,700,390,844&direction=rtl")
        #expect(visible.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(visible.hasSuffix("\r\n\r\n" + cli.stdout))
        let bad = try ServerProcessTests.get(port: server.port, "/v1/feeds/feed/layouts/390/visible?rect=0,700,390,844&direction=up")
        #expect(bad.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && bad.contains("direction=\\\"up\\\": must be ltr or rtl"), "\(bad)")
    }
}
