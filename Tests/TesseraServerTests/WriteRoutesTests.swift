import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout

@Suite("server: write routes")
struct WriteRoutesTests {
    static let grid = #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 10, "cycle": [{}]}}]}"#

    @Test("writes answer 403 without --token-file, and 401 without the right bearer token; reads need none")
    func access() async throws {
        let fixture = try await ServerFixture()
        let writes: [(HTTPRequest.Method, String)] = [
            (.put, "/v1/feeds/g"), (.post, "/v1/feeds/feed/sections/0/items"), (.delete, "/v1/feeds/feed/layouts/390"), (.delete, "/v1/feeds/feed"),
        ]
        try await fixture.application().test(.router) { client in
            for (method, uri) in writes {
                let response = try await client.execute(uri: uri, method: method, headers: ServerFixture.authorized, body: ByteBuffer(string: Self.grid))
                #expect(response.status == .forbidden, "\(method) \(uri)")
                #expect(response.problem["detail"] as? String == "this server takes no writes (it was started without a write token)")
            }
        }
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            for (method, uri) in writes {
                for headers: HTTPFields in [[:], [.authorization: "Bearer secreT"], [.authorization: "Bearer secret2"], [.authorization: "Basic secret"], [.authorization: "secret"]] {
                    let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: Self.grid))
                    #expect(response.status == .unauthorized, "\(method) \(uri) \(headers)")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"tessera\"")
                }
            }
            let read = try await client.execute(uri: "/v1/feeds/feed", method: .get)
            #expect(read.status == .ok)
        }
        #expect(try await fixture.store.specs().map(\.name) == ["feed"])
        #expect(try await fixture.store.layouts(name: "feed").map(\.state) == [.fresh])
    }

    @Test("PUT stores a spec (201), updates it (200) laying out only what changed, at every extent asked for and already stored")
    func put() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let created = try await client.execute(
                uri: "/v1/feeds/g%20rid?extent=390&extent=430", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: Self.grid)
            )
            #expect(created.status == .created)
            #expect(created.text == #"{"name": "g rid", "layouts": [{"extent": 390, "kept": 0, "shifted": 0, "resumed": 0, "recomputed": 1}, {"extent": 430, "kept": 0, "shifted": 0, "resumed": 0, "recomputed": 1}]}"# + "\n")
            let two = Self.grid.replacingOccurrences(of: #"}}]}"#, with: #"}}, {"layout": {"kind": "flow", "itemSize": [50, 50]}, "items": [{}]}]}"#)
            let updated = try await client.execute(uri: "/v1/feeds/g%20rid?extent=200", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: two))
            #expect(updated.status == .ok)
            #expect(updated.text == #"{"name": "g rid", "layouts": [{"extent": 200, "kept": 0, "shifted": 0, "resumed": 0, "recomputed": 2}, {"extent": 390, "kept": 1, "shifted": 0, "resumed": 0, "recomputed": 1}, {"extent": 430, "kept": 1, "shifted": 0, "resumed": 0, "recomputed": 1}]}"# + "\n")
            let named = try await client.execute(
                uri: "/v1/feeds/same", method: .put, headers: ServerFixture.authorized,
                body: ByteBuffer(string: Self.grid.replacingOccurrences(of: #"{"format": 1,"#, with: #"{"format": 1, "name": "same","#))
            )
            #expect(named.status == .created)
        }
        let stored = try #require(try await fixture.store.spec(named: "g rid"))
        #expect(stored.sections.count == 2)
        #expect(try await fixture.store.layouts(name: "g rid").map(\.crossExtent) == [200, 390, 430])
    }

    @Test("bad PUT bodies are 400 with the JSON path, and the stored spec stays as it was", arguments: [
        ("{\"format\": 1, ", "the body is not valid JSON: line 1, column 15: expected a key in quotes", nil),
        (#"{"format": 2, "sections": []}"#, "format", "format"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "nope"}, "items": []}]}"#, "sections[0].layout.kind", "sections[0].layout.kind"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": "/etc/passwd"}}]}"#, "must not name items files", "sections[0].items.file"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": []}, {"layout": {"kind": "flow"}, "items": {"segments": [[{}], {"file": "x.ndjson"}]}}]}"#,
         "must not name items files", "sections[1].items.segments[1].file"),
        (#"{"format": 1, "name": "other", "sections": []}"#, "name: the spec is named \"other\" but is sent to \"feed\"", "name"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "mosaic", "columns": 3}, "items": [{"aspectRatio": 0}]}]}"#,
         "sections[0].items[0].aspectRatio: must be a finite number above 0", "sections[0].items[0].aspectRatio"),
    ] as [(String, String, String?)])
    func badSpecs(body: String, detail: String, path: String?) async throws {
        let fixture = try await ServerFixture()
        let before = try await fixture.store.listing()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let response = try await client.execute(uri: "/v1/feeds/feed?extent=390", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            #expect((response.problem["detail"] as? String)?.contains(detail) == true, "\(response.text)")
            #expect(response.problem["path"] as? String == path)
        }
        #expect(try await fixture.store.listing() == before)
    }

    @Test("a body over --max-body-size is 413, whether its length is declared or not")
    func bodyLimit() async throws {
        let fixture = try await ServerFixture()
        let small = TesseraServiceConfiguration(writeAccess: .bearerToken("secret"), maximumBodySize: 64)
        let big = String(repeating: "{}\n", count: 100)
        try await fixture.application(small).test(.router) { client in
            let declared = try await client.execute(uri: "/v1/feeds/feed/sections/2/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: big))
            #expect(declared.status == .contentTooLarge)
            #expect(declared.problem["detail"] as? String == "the body has 300 bytes, more than the server's limit of 64 bytes per request body")
            let fits = try await client.execute(uri: "/v1/feeds/feed/sections/2/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n{}\n"))
            #expect(fits.status == .ok)
        }
        try await fixture.application(small).test(.live) { client in
            // Chunked, no Content-Length: refused while reading.
            var headers = ServerFixture.authorized
            headers[.transferEncoding] = "chunked"
            let streamed = try await client.execute(uri: "/v1/feeds/feed/sections/2/items", method: .post, headers: headers, body: ByteBuffer(string: big))
            #expect(streamed.status == .contentTooLarge)
        }
        #expect(try await fixture.store.spec(named: "feed")?.sections[2].items.knownCount == 52)
    }

    @Test("POST appends NDJSON items at every stored extent; bad lines are 400 with their line and path")
    func append() async throws {
        let fixture = try await ServerFixture(extents: [390, 430])
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let uri = "/v1/feeds/feed/sections/2/items"
            let ok = try await client.execute(uri: uri, method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n\n{\"aspectRatio\": 2}\r\n"))
            #expect(ok.status == .ok)
            #expect(ok.text == #"{"name": "feed", "layouts": [{"extent": 390, "kept": 2, "shifted": 0, "resumed": 1, "recomputed": 0}, {"extent": 430, "kept": 2, "shifted": 0, "resumed": 1, "recomputed": 0}]}"# + "\n")
            let syntax = try await client.execute(uri: uri, method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n{\"a\": \n"))
            #expect(syntax.status == .badRequest && syntax.problem["path"] as? String == "items[1]")
            #expect(syntax.problem["detail"] as? String == "line 2 is not valid JSON: unexpected end of input at column 7")
            let shape = try await client.execute(uri: uri, method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n\n[1]\n"))
            #expect(shape.status == .badRequest && shape.problem["path"] as? String == "items[1]", "\(shape.text)")
            #expect(shape.problem["detail"] as? String == "line 3: items[1]: an item must be an object, got an array")
            // A field's range is checked by the kind that reads it, at the item's place in the stored section.
            let range = try await client.execute(
                uri: "/v1/feeds/feed/sections/1/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{\"aspectRatio\": -1}")
            )
            #expect(range.status == .badRequest && (range.problem["path"] as? String)?.hasSuffix(".aspectRatio") == true, "\(range.text)")
            let empty = try await client.execute(uri: uri, method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "\n \n"))
            #expect(empty.status == .badRequest && empty.problem["detail"] as? String == "the body holds no items: send one JSON object per line")
            let section = try await client.execute(uri: "/v1/feeds/feed/sections/9/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}"))
            #expect(section.status == .notFound)
            let spec = try await client.execute(uri: "/v1/feeds/nope/sections/0/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}"))
            #expect(spec.status == .notFound)
        }
        #expect(try await fixture.store.spec(named: "feed")?.sections[2].items.knownCount == 52)
    }

    @Test("DELETE of a layout marks it stale (204, then recomputed by the next read); DELETE of a feed removes it; unknown ones are 404")
    func delete() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let layout = try await client.execute(uri: "/v1/feeds/feed/layouts/390", method: .delete, headers: ServerFixture.authorized)
            #expect(layout.status == .noContent && layout.text.isEmpty)
            #expect(try await fixture.store.layouts(name: "feed").map(\.state) == [.stale])
            let missing = try await client.execute(uri: "/v1/feeds/feed/layouts/431", method: .delete, headers: ServerFixture.authorized)
            #expect(missing.status == .notFound && missing.problem["detail"] as? String == "spec \"feed\" has no layout at 431")
            let read = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,10,10", method: .get)
            #expect(read.status == .ok)
            #expect(try await fixture.store.layouts(name: "feed").map(\.state) == [.fresh])
            let feed = try await client.execute(uri: "/v1/feeds/feed", method: .delete, headers: ServerFixture.authorized)
            #expect(feed.status == .noContent)
            let again = try await client.execute(uri: "/v1/feeds/feed", method: .delete, headers: ServerFixture.authorized)
            #expect(again.status == .notFound)
            let gone = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,10,10", method: .get)
            #expect(gone.status == .notFound)
        }
        #expect(try await fixture.store.specs().isEmpty)
    }
}
