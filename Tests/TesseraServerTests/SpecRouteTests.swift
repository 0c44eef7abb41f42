import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraLayout

/// `GET /v1/feeds/{name}/spec`: the stored spec, as `tessera spec` prints it.
@Suite("server: the stored spec route")
struct SpecRouteTests {
    @Test("answers the stored spec with its name, byte for byte what tessera spec prints; 404 for an unknown name")
    func storedSpec() async throws {
        let fixture = try await ServerFixture()
        let printed = try Executable.run("tessera", ["spec", "--db", fixture.path, "--name", "feed"])
        #expect(printed.status == 0, "\(printed.stderr)")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/feeds/feed/spec", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            #expect(response.text == printed.stdout)
            let spec = try Spec(jsonText: response.text)
            #expect(spec.name == "feed")
            #expect(spec.canonicalText == (try Spec(jsonText: ServerFixture.feed).canonicalText))
            let head = try await client.execute(uri: "/v1/feeds/feed/spec", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            let unknown = try await client.execute(uri: "/v1/feeds/nope/spec", method: .get)
            #expect(unknown.status == .notFound)
            #expect(unknown.problem["detail"] as? String == "no spec named \"nope\" is stored; save or precompute it first")
            #expect(try await client.execute(uri: "/v1/feeds/feed/spec", method: .put).status == .methodNotAllowed)
        }
    }
}
