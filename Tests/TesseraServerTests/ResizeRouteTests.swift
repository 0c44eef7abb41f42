import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout
import TesseraStore

@Suite("server: PATCH resizes items")
struct ResizeRouteTests {
    static let uri = "/v1/feeds/feed/sections/1/items"
    static let everything = Rect(x: -1e6, y: -1e6, width: 4e6, height: 4e6)

    @Test("PATCH needs the token as the other writes: 403 without --token-file, 401 without the right one; nothing changed")
    func access() async throws {
        let fixture = try await ServerFixture()
        let body = ByteBuffer(string: "{\"item\": 3, \"aspectRatio\": 2}\n")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: Self.uri, method: .patch, headers: ServerFixture.authorized, body: body)
            #expect(response.status == .forbidden)
        }
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            for headers: HTTPFields in [[:], [.authorization: "Bearer nope"]] {
                let response = try await client.execute(uri: Self.uri, method: .patch, headers: headers, body: body)
                #expect(response.status == .unauthorized)
            }
        }
        #expect(try await fixture.store.spec(named: "feed")?.canonicalText == (try Spec(jsonText: ServerFixture.feed)).canonicalText)
    }

    @Test("PATCH replaces fields and lays every stored extent out again: 200 with PUT's body, frames of the changed spec")
    func resize() async throws {
        let fixture = try await ServerFixture(extents: [390, 430])
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let body = ByteBuffer(string: "{\"item\": 100, \"aspectRatio\": 2}\n\n{\"item\": 7, \"aspectRatio\": 0.5}\r\n{\"item\": 100, \"canBeBig\": true}\n")
            let response = try await client.execute(uri: Self.uri, method: .patch, headers: ServerFixture.authorized, body: body)
            #expect(response.status == .ok)
            #expect(response.text == #"{"name": "feed", "layouts": [{"extent": 390, "kept": 1, "shifted": 1, "resumed": 0, "recomputed": 1}, {"extent": 430, "kept": 1, "shifted": 1, "resumed": 0, "recomputed": 1}]}"# + "\n", "\(response.text)")
        }
        var expected = try Spec(jsonText: ServerFixture.feed)
        var items: [Item] = []
        try expected.sections[1].items.forEach(section: 1) { item, _, _ in items.append(item) }
        items[7] = Item(aspectRatio: 0.5)
        items[100] = Item(aspectRatio: 2, canBeBig: true)
        expected.sections[1].items = .list(items)
        for width in [390.0, 430] {
            #expect(try await fixture.store.elements(name: "feed", crossExtent: width, in: Self.everything)
                == LayoutEngine().layout(expected, crossExtent: width).elements)
        }
    }

    @Test("refused: 404 for an unknown spec, section or item, 400 with the path for a bad field or line; nothing changed")
    func refusals() async throws {
        let fixture = try await ServerFixture()
        let before = try await fixture.store.elements(name: "feed", crossExtent: 390, in: Self.everything)
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            func patch(_ uri: String, _ text: String) async throws -> TestResponse {
                try await client.execute(uri: uri, method: .patch, headers: ServerFixture.authorized, body: ByteBuffer(string: text))
            }
            let good = "{\"item\": 3, \"aspectRatio\": 2}\n"
            #expect(try await patch("/v1/feeds/nope/sections/0/items", good).status == .notFound)
            #expect(try await patch("/v1/feeds/feed/sections/7/items", good).status == .notFound)
            let item = try await patch(Self.uri, good + "{\"item\": 120, \"aspectRatio\": 2}\n")
            #expect(item.status == .notFound)
            #expect(item.problem["detail"] as? String == "line 2: section 1 of spec \"feed\" has no item 120 (it has 120)")
            let value = try await patch(Self.uri, good + "{\"item\": 5, \"aspectRatio\": -1}\n")
            #expect(value.status == .badRequest && value.problem["path"] as? String == "sections[1].items[5].aspectRatio", "\(value.text)")
            #expect((value.problem["detail"] as? String)?.hasPrefix("sections[1].items[5].aspectRatio: line 2: ") == true, "\(value.text)")
            let field = try await patch(Self.uri, "{\"item\": 5, \"ratio\": 2}\n")
            #expect(field.status == .badRequest && field.problem["path"] as? String == "sections[1].items[5].ratio", "\(field.text)")
            let syntax = try await patch(Self.uri, good + "{\"item\": \n")
            #expect(syntax.status == .badRequest && (syntax.problem["detail"] as? String)?.hasPrefix("line 2 is not valid JSON") == true)
            #expect(try await patch(Self.uri, "\n").status == .badRequest)
            #expect(try await patch(Self.uri, "{\"item\": 5}").status == .badRequest)
            let long = try await patch(Self.uri, "{\"item\": 5, \"length\": 1" + String(repeating: " ", count: 70_000) + "}")
            #expect(long.status == .badRequest && long.problem["detail"] as? String == "line 1 is longer than 65536 bytes")
        }
        #expect(try await fixture.store.spec(named: "feed")?.canonicalText == (try Spec(jsonText: ServerFixture.feed)).canonicalText)
        #expect(try await fixture.store.elements(name: "feed", crossExtent: 390, in: Self.everything) == before)
    }
}
