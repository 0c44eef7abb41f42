import Foundation
import Testing

/// `Expect: 100-continue` on the real `tessera-server`, over raw sockets: a
/// client that asks for it waits for `100 Continue` before sending its body
/// (curl for a second, then sends it anyway).
@Suite("server: Expect: 100-continue", .timeLimit(.minutes(2)))
struct ExpectContinueTests {
    typealias Running = ServerProcessTests.Running

    /// The server over the fixture's store, taking writes with the token `s3cret`.
    static func writableServer(_ fixture: ServerFixture) throws -> Running {
        let token = try fixture.file("token", "s3cret")
        return try Running(["--db", fixture.path, "--token-file", token, "--log-level", "warning"])
    }

    @Test("Expect: 100-continue is answered 100 Continue before the body is sent, then the request's own answer")
    func expectContinue() async throws {
        let fixture = try await ServerFixture()
        let server = try Self.writableServer(fixture)
        defer { _ = server.stop() }
        let body = ServerFixture.feed
        func head(_ version: String, _ name: String) -> String {
            "PUT /v1/feeds/\(name)?extent=390 \(version)\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-Continue\r\nConnection: close\r\n\r\n"
        }
        let client = try LoopbackSocket(port: server.port)
        client.send(head("HTTP/1.1", "other"))
        #expect(client.firstBytes(within: 5) == "HTTP/1.1 100 Continue\r\n\r\n")
        client.send(body)
        let answer = client.read(for: 30)
        #expect(answer.closed && answer.text.hasPrefix("HTTP/1.1 201 Created\r\n"), "\(answer.text)")
        #expect(!answer.text.contains("100 Continue"))

        // Not to an HTTP/1.0 client (RFC 9110): it sends the body after a while anyway.
        let old = try LoopbackSocket(port: server.port)
        old.send(head("HTTP/1.0", "older"))
        #expect(old.firstBytes(within: 0.5) == "")
        old.send(body)
        let oldAnswer = old.read(for: 30)
        #expect(oldAnswer.closed && oldAnswer.text.hasPrefix("HTTP/1.0 201 Created\r\n"), "\(oldAnswer.text)")
        #expect(try await fixture.store.listing(name: "other") != nil)
        #expect(try await fixture.store.listing(name: "older") != nil)
    }

    @Test("a request that waits for 100 Continue behind another's answer gets it once that answer has ended")
    func expectContinuePipelined() async throws {
        let fixture = try await ServerFixture()
        let server = try Self.writableServer(fixture)
        defer { _ = server.stop() }
        let body = ServerFixture.feed
        let client = try LoopbackSocket(port: server.port)
        client.send("GET /v1/feeds?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            + "PUT /v1/feeds/other?extent=390 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\n"
            + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        var received = ""
        let deadline = Date().addingTimeInterval(10)
        while !received.contains("100 Continue\r\n\r\n"), Date() < deadline { received += client.firstBytes(within: 1) }
        let list = try #require(received.range(of: "HTTP/1.1 200 OK\r\n"))
        let interim = try #require(received.range(of: "HTTP/1.1 100 Continue\r\n\r\n"))
        #expect(list.upperBound <= interim.lowerBound, "\(received)")
        client.send(body)
        let answer = client.read(for: 30)
        #expect(answer.closed && answer.text.contains("HTTP/1.1 201 Created\r\n"), "\(answer.text)")
    }
}
