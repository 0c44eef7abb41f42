import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout
import TesseraPrecompute

@Suite("server: read routes answer as the CLI does")
struct ReadRoutesTests {
    @Test("health, the feed list and one feed: the CLI's list JSON, byte for byte")
    func listing() async throws {
        let fixture = try await ServerFixture()
        let list = try Executable.run("tessera", ["list", "--db", fixture.path, "--format", "json", "--limit", "1000"])
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

    @Test("the feed list by pages: at most limit specs after after, in name order, next null on the last; they concatenate to the whole")
    func pages() async throws {
        let fixture = try await ServerFixture()
        // 1,200 specs before "feed": a page of them is sent in several pieces.
        let names = (0..<1_200).map { "f-" + String(10_000 + $0).dropFirst() }
        let specs = try names.map { name in
            try Spec(jsonText: #"{"format": 1, "name": "\#(name)", "sections": [{"layout": {"kind": "grid", "fraction": 1}, "items": {"count": 2, "cycle": [{}]}}]}"#)
        }
        _ = try await fixture.store.saveBatch(specs, crossExtents: [320])
        let all = names + ["feed"]
        let whole = try Executable.run("tessera", ["list", "--db", fixture.path, "--format", "json", "--limit", "10000"])
        let standard = try Executable.run("tessera", ["list", "--db", fixture.path, "--format", "json"])
        #expect(whole.status == 0 && standard.status == 0)
        try await fixture.application().test(.router) { client in
            func page(_ query: String) async throws -> (names: [String], next: String?, text: String) {
                let answer = try await client.execute(uri: "/v1/feeds" + query, method: .get)
                #expect(answer.status == .ok, "\(query): \(answer.text)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
                let specs = try #require(object["specs"] as? [[String: Any]])
                #expect(object.keys.sorted() == ["next", "specs"])
                return (specs.compactMap { $0["name"] as? String }, object["next"] as? String, answer.text)
            }
            // The largest page is the CLI's, byte for byte; the default is 1,000 specs.
            let largest = try await page("?limit=10000")
            #expect(largest.text == whole.stdout)
            #expect(largest.names == all && largest.next == nil)
            #expect(whole.stdout.hasSuffix("], \"next\": null}\n"))
            #expect(whole.stdout.dropLast(#"], "next": null}"#.count + 1) + "]}\n" == standard.stdout)
            let first = try await page("")
            #expect(first.names == Array(all.prefix(1_000)) && first.next == all[999])
            #expect(first.text == (try await page("?limit=1000")).text)
            for limit in [1, 7, 499, 500, 501, 1_201] {
                var listed: [String] = []
                var next: String?
                var requests = 0
                repeat {
                    let answer = try await page("?limit=\(limit)" + (next.map { "&after=\($0)" } ?? ""))
                    #expect(answer.names.count <= limit)
                    listed += answer.names
                    next = answer.next
                    if next != nil { #expect(next == answer.names.last) }
                    requests += 1
                } while next != nil && requests <= all.count
                #expect(listed == all, "limit=\(limit)")
                #expect(requests == (all.count + limit - 1) / limit, "limit=\(limit)")
            }
            // after need not be stored; it is percent-decoded as a name in a path is; past the last, an empty page.
            #expect(try await page("?after=f-0599x&limit=2").names == ["f-0600", "f-0601"])
            #expect(try await page("?after=%66-0010&limit=1") == (["f-0011"], "f-0011", try await page("?after=f-0010&limit=1").text))
            #expect(try await page("?limit=3&after=f-1199").names == ["feed"])
            let end = try await page("?after=zzz")
            #expect(end.names.isEmpty && end.next == nil && end.text == "{\"specs\": [], \"next\": null}\n")
            for query in ["limit=0", "limit=10001", "limit=-1", "limit=abc", "limit=", "limit=1.5", "limit=1&limit=2"] {
                let refused = try await client.execute(uri: "/v1/feeds?" + query, method: .get)
                #expect(refused.status == .badRequest && refused.headers[.contentType] == "application/problem+json", "\(query)")
                #expect((refused.problem["detail"] as? String)?.contains("limit") == true, "\(query): \(refused.text)")
            }
            for query in ["after=%ZZ", "after=%FF", "after=a&after=b"] {
                let refused = try await client.execute(uri: "/v1/feeds?" + query, method: .get)
                #expect(refused.status == .badRequest && refused.headers[.contentType] == "application/problem+json", "\(query)")
                #expect((refused.problem["detail"] as? String)?.contains("after") == true, "\(query): \(refused.text)")
            }
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
