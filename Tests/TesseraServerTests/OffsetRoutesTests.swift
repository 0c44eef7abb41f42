import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout

/// `offset=SECTION:X` on the read routes of a layout: the same bytes as the
/// CLI's `--offset SECTION=X`, the top-level `"orthogonal"` included; a
/// malformed offset is a 400 that names the parameter.
@Suite("server: offset=SECTION:X")
struct OffsetRoutesTests {
    static func fixture() async throws -> ServerFixture {
        let fixture = try await ServerFixture()
        let spec = try Spec(contentsOfFile: "\(ServerFixture.repository)/Examples/carousel-feed.json")
        try await fixture.store.save(spec, as: "carousels", crossExtents: [390])
        return fixture
    }

    @Test("visible, rect and item with offsets equal `tessera query --offset` and `tessera item --offset`", arguments: [
        ("0,0,390,844", "offset=1:200&offset=4:-30", ["--offset", "1=200", "--offset", "4=-30"]),
        ("0,300,390,400", "offset=2:150&direction=rtl", ["--offset", "2=150", "--rtl"]),
        ("0,900,390,300", "offset=4:1e3&offset=0:50", ["--offset", "4=1e3", "--offset", "0=50"]),
    ])
    func answers(rect: String, query: String, flags: [String]) async throws {
        let fixture = try await Self.fixture()
        let base = ["--db", fixture.path, "--name", "carousels", "--width", "390", "--format", "json"] + flags
        let visible = try Executable.run("tessera", ["query"] + base + ["--viewport", rect])
        let inRect = try Executable.run("tessera", ["query"] + base + ["--rect", rect])
        let item = try Executable.run("tessera", ["item"] + base + ["--section", "1", "--item", "3"])
        #expect(visible.status == 0 && inRect.status == 0 && item.status == 0, "\(visible.stderr)\(inRect.stderr)\(item.stderr)")
        #expect(item.stdout.contains(#""orthogonal": [{"section": 1, "contentLength": "#))
        try await fixture.application().test(.router) { client in
            let answer = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/visible?rect=\(rect)&\(query)", method: .get)
            #expect(answer.status == .ok && answer.text == visible.stdout, "\(answer.text)")
            let rectAnswer = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/rect?\(query)&rect=\(rect)", method: .get)
            #expect(rectAnswer.status == .ok && rectAnswer.text == inRect.stdout)
            let itemAnswer = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/items/1/3?\(query)", method: .get)
            #expect(itemAnswer.status == .ok && itemAnswer.text == item.stdout)
        }
    }

    @Test("an offset moves a carousel's cells and leaves the other sections as they are")
    func moved() async throws {
        let fixture = try await Self.fixture()
        try await fixture.application().test(.router) { client in
            let plain = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/items/1/0", method: .get)
            let moved = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/items/1/0?offset=1:100", method: .get)
            // Trending's first card is at x = 16 (insets.left); 100 to the left once scrolled.
            #expect(plain.text.contains(#""frame": [16, "#) && moved.text.contains(#""frame": [-84, "#), "\(moved.text)")
            let feed = try await client.execute(uri: "/v1/feeds/feed/layouts/390/items/1/7", method: .get)
            let feedMoved = try await client.execute(uri: "/v1/feeds/feed/layouts/390/items/1/7?offset=1:100", method: .get)
            #expect(feed.text == feedMoved.text && !feed.text.contains("orthogonal"))
        }
    }

    @Test("a malformed offset is a 400 naming the parameter", arguments: [
        ("offset=1", #"offset: "1" is not SECTION:X (write offset=SECTION:X, as offset=2:240)"#),
        ("offset=x:5", #"offset: "x" is not a section number (an integer, at least 0) (write offset=SECTION:X, as offset=2:240)"#),
        ("offset=-1:5", #"offset: "-1" is not a section number (an integer, at least 0) (write offset=SECTION:X, as offset=2:240)"#),
        ("offset=1:abc", #"offset: the offset of section 1, "abc", is not a finite number (write offset=SECTION:X, as offset=2:240)"#),
        ("offset=1:1e999", #"offset: the offset of section 1, "1e999", is not a finite number (write offset=SECTION:X, as offset=2:240)"#),
        ("offset=1:5&offset=1:6", "offset: section 1 has more than one offset (write offset=SECTION:X, as offset=2:240)"),
        (Array(repeating: "offset=1:5", count: 10_001).joined(separator: "&"),
         "offset: at most 10000 offsets, got 10001 (write offset=SECTION:X, as offset=2:240)"),
    ])
    func badOffset(query: String, detail: String) async throws {
        let fixture = try await Self.fixture()
        try await fixture.application().test(.router) { client in
            for route in ["visible?rect=0,0,390,844&", "rect?rect=0,0,390,844&", "items/1/3?"] {
                let response = try await client.execute(uri: "/v1/feeds/carousels/layouts/390/\(route)\(query)", method: .get)
                #expect(response.status == .badRequest, "\(route)")
                #expect(response.headers[.contentType] == "application/problem+json")
                #expect(response.problem["detail"] as? String == detail, "\(route)")
            }
        }
    }
}
