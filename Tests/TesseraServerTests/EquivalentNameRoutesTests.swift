import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraLayout
import TesseraTestSupport

/// Names that differ only in Unicode normalization are one name on every
/// route: a path's name is percent-decoded, then read in NFC.
@Suite("server: canonically equivalent names are one name")
struct EquivalentNameRoutesTests {
    static func grid(items: Int, name: String? = nil) -> String {
        let named = name.map { #""name": \#(JSONWriter.quote($0)), "# } ?? ""
        return #"{"format": 1, \#(named)"sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": \#(items), "cycle": [{}]}}]}"#
    }

    /// Every byte but the unreserved ones percent-encoded.
    static func encoded(_ name: String) -> String {
        name.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): String(UnicodeScalar(byte))
            default: String(format: "%%%02X", byte)
            }
        }.joined()
    }

    static func contentHeight(_ response: TestResponse) throws -> Double {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
        let size = try #require(object["contentSize"] as? [Double])
        return size[1]
    }

    @Test("café precomposed and decomposed: one spec, the second PUT updates it, and every read route answers it under both")
    func cafe() async throws {
        let fixture = try await ServerFixture()
        let seven = try LayoutEngine().layout(Spec(jsonText: Self.grid(items: 7)), crossExtent: 390).contentSize.height
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let created = try await client.execute(
                uri: "/v1/feeds/caf%C3%A9?extent=390", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: Self.grid(items: 1000))
            )
            #expect(created.status == .created)
            let updated = try await client.execute(
                uri: "/v1/feeds/cafe%CC%81?extent=390", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: Self.grid(items: 7))
            )
            #expect(updated.status == .ok)
            #expect(updated.text.hasPrefix(#"{"name": "caf\#u{E9}", "#), "\(updated.text)")
            for path in ["caf%C3%A9", "cafe%CC%81"] {
                let layouts = "/v1/feeds/\(path)/layouts/390"
                let visible = try await client.execute(uri: "\(layouts)/visible?rect=0,0,390,844", method: .get)
                #expect(visible.status == .ok)
                #expect(try Self.contentHeight(visible) == seven)
                let rect = try await client.execute(uri: "\(layouts)/rect?rect=0,0,390,100000", method: .get)
                #expect(try Self.contentHeight(rect) == seven)
                #expect(rect.text.components(separatedBy: #""kind": "cell""#).count - 1 == 7)
                #expect(try await client.execute(uri: "\(layouts)/items/0/6", method: .get).status == .ok)
                #expect(try await client.execute(uri: "\(layouts)/items/0/7", method: .get).status == .notFound)
                let manifest = try await client.execute(uri: "\(layouts)/tiles", method: .get)
                #expect(manifest.status == .ok)
                let entry = try await client.execute(uri: "/v1/feeds/\(path)", method: .get)
                #expect(entry.status == .ok)
                #expect(entry.text.contains(#""name": "caf\#u{E9}""#), "\(entry.text)")
            }
            let deleted = try await client.execute(uri: "/v1/feeds/cafe%CC%81", method: .delete, headers: ServerFixture.authorized)
            #expect(deleted.status == .noContent)
            #expect(try await client.execute(uri: "/v1/feeds/caf%C3%A9", method: .get).status == .notFound)
        }
        #expect(try await fixture.store.specs().map(\.name) == ["feed"])
    }

    @Test("random equivalent pairs: stored under one spelling (in the path or the spec's own name), read under the other")
    func randomPairs() async throws {
        let fixture = try await ServerFixture()
        var random = SeededRandom(seed: 0x5E4E)
        let pairs = (0..<16).map { _ in EquivalentNames.pair(using: &random) }
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            for (round, (first, second)) in pairs.enumerated() {
                let items = 3 + round
                // The spec names itself with the other spelling: the two are one name, not a mismatch.
                let put = try await client.execute(
                    uri: "/v1/feeds/\(Self.encoded(first))?extent=390", method: .put, headers: ServerFixture.authorized,
                    body: ByteBuffer(string: Self.grid(items: items, name: second))
                )
                #expect(put.status == .created, "\(first.debugDescription): \(put.text)")
                let expected = try LayoutEngine().layout(Spec(jsonText: Self.grid(items: items)), crossExtent: 390).contentSize.height
                let visible = try await client.execute(uri: "/v1/feeds/\(Self.encoded(second))/layouts/390/visible?rect=0,0,390,844", method: .get)
                #expect(visible.status == .ok, "\(second.debugDescription): \(visible.text)")
                #expect(try Self.contentHeight(visible) == expected)
            }
        }
        let names = try await fixture.store.specs().map(\.name)
        #expect(names.count == 17)
        #expect(names.allSatisfy { Array($0.utf8) == Array(Spec.normalizedName($0).utf8) })
    }
}
