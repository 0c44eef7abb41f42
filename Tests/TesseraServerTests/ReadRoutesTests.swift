import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout

@Suite("server: read routes answer as the CLI does")
struct ReadRoutesTests {
    @Test("health, the feed list and one feed: the CLI's list JSON, byte for byte")
    func listing() async throws {
        let fixture = try await ServerFixture()
        let list = try Executable.run("tessera", ["list", "--db", fixture.path, "--format", "json"])
        #expect(list.status == 0)
        try await fixture.application().test(.router) { client in
            let health = try await client.execute(uri: "/v1/health", method: .get)
            #expect(health.status == .ok && health.text == "{\"status\": \"ok\"}\n")
            #expect(health.headers[.contentType] == "application/json")
            let feeds = try await client.execute(uri: "/v1/feeds", method: .get)
            #expect(feeds.status == .ok && feeds.text == list.stdout)
            let feed = try await client.execute(uri: "/v1/feeds/feed", method: .get)
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])["specs"] as? [Any]
            let entry = try #require(try JSONSerialization.jsonObject(with: Data(feed.text.utf8)) as? NSDictionary)
            #expect(entries?.first as? NSDictionary == entry)
            let unknown = try await client.execute(uri: "/v1/feeds/nope", method: .get)
            #expect(unknown.status == .notFound && unknown.headers[.contentType] == "application/problem+json")
            #expect(unknown.problem["detail"] as? String == #"no spec named "nope" is stored; save or precompute it first"#)
        }
    }

    @Test("visible, rect and item answers equal `tessera query` and `tessera item` on the same store", arguments: [
        "0,0,390,844", "0,1500,390,844", "-20,-50,100,100", "0,4000,390,844", "10,2500.5,200.25,600",
    ])
    func answers(rect: String) async throws {
        let fixture = try await ServerFixture()
        let base = ["--db", fixture.path, "--name", "feed", "--width", "390", "--format", "json"]
        let visible = try Executable.run("tessera", ["query"] + base + ["--viewport", rect])
        let inRect = try Executable.run("tessera", ["query"] + base + ["--rect", rect])
        let item = try Executable.run("tessera", ["item"] + base + ["--section", "1", "--item", "7"])
        #expect(visible.status == 0 && inRect.status == 0 && item.status == 0)
        try await fixture.application().test(.router) { client in
            let answer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=\(rect)", method: .get)
            #expect(answer.status == .ok && answer.text == visible.stdout)
            #expect(answer.headers[.eTag] != nil)
            let rectAnswer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=\(rect)", method: .get)
            #expect(rectAnswer.status == .ok && rectAnswer.text == inRect.stdout)
            let itemAnswer = try await client.execute(uri: "/v1/feeds/feed/layouts/390/items/1/7", method: .get)
            #expect(itemAnswer.status == .ok && itemAnswer.text == item.stdout)
        }
    }

    @Test("an ETag names the layout's frames: If-None-Match gets 304 with no body until they change")
    func entityTags() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let uri = "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844"
            let first = try await client.execute(uri: uri, method: .get)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))
            let other = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,900,390,10", method: .get)
            #expect(other.headers[.eTag] == tag)
            for condition in [tag, "\"x\", \(tag)", "W/\(tag)", "*"] {
                let cached = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: condition])
                #expect(cached.status == .notModified && cached.text.isEmpty && cached.headers[.eTag] == tag, "\(condition)")
            }
            let mismatch = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\""])
            #expect(mismatch.status == .ok && mismatch.text == first.text)

            let appended = try await client.execute(
                uri: "/v1/feeds/feed/sections/2/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n")
            )
            #expect(appended.status == .ok)
            let after = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
            #expect(after.status == .ok && after.headers[.eTag] != tag)
        }
    }

    @Test("HEAD answers as GET without a body; OPTIONS lists the methods")
    func headAndOptions() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let head = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .head)
            #expect(head.status == .ok && head.text.isEmpty && head.headers[.eTag] != nil)
            let options = try await client.execute(uri: "/v1/feeds/feed", method: .options)
            #expect(options.status == .noContent && options.headers[.allow] == "GET, HEAD, PUT, DELETE, OPTIONS")
        }
    }

    @Test("a horizontal spec is read at its height")
    func horizontal() async throws {
        let fixture = try await ServerFixture()
        let shelf = try Spec(contentsOfFile: "\(ServerFixture.repository)/Examples/horizontal-shelf.json")
        try await fixture.store.save(shelf, as: "shelf", crossExtents: [300])
        let cli = try Executable.run("tessera", ["query", "--db", fixture.path, "--name", "shelf", "--height", "300", "--rect", "0,0,800,300", "--format", "json"])
        try await fixture.application().test(.router) { client in
            let answer = try await client.execute(uri: "/v1/feeds/shelf/layouts/300/rect?rect=0,0,800,300", method: .get)
            #expect(answer.status == .ok && answer.text == cli.stdout)
        }
    }
}
