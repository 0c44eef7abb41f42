import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
import TesseraLayout

/// `--max-answer-elements`: an answer never holds more, a rect over more
/// answers 400 saying how to split it, and a large answer is the CLI's text.
@Suite("server: the size of one answer")
struct AnswerSizeTests {
    /// A second feed of 100,000 items of 30 points, one a row: 3,000,000 points long at 390.
    static let column = #"{"format": 1, "sections": [{"layout": {"kind": "flow", "itemSize": [390, 30]}, "items": {"count": 100000, "cycle": [{}]}}]}"#

    @Test("a rect over more elements than the limit answers 400 naming the limit; one within it, the CLI's bytes")
    func limit() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.save(try Spec(jsonText: Self.column), as: "column", crossExtents: [390])
        let cli = try Executable.run("tessera", ["query", "--db", fixture.path, "--name", "column", "--width", "390", "--rect", "0,0,390,87000", "--format", "json"])
        #expect(cli.status == 0)
        try await fixture.application(.init(maximumAnswerElements: 3000)).test(.router) { client in
            // Read band by band, refused before all is read.
            let whole = try await client.execute(uri: "/v1/feeds/column/layouts/390/rect?rect=0,0,1e308,1e308", method: .get)
            #expect(whole.status == .badRequest)
            let detail = try #require(whole.problem["detail"] as? String)
            #expect(detail.hasPrefix("the rect holds at least 4500 elements, ") && detail.contains("more than the server's limit of 3000 elements per answer"), "\(detail)")
            #expect(detail.contains("parts of 90000 points hold about 3000 elements"), "\(detail)")
            // Short, read whole and counted after.
            let short = try await client.execute(uri: "/v1/feeds/column/layouts/390/visible?rect=0,0,390,19000", method: .get)
            #expect(short.status == .ok)
            let dense = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,390,1e9", method: .get)
            #expect(dense.status == .ok)
            // Long and within the limit: 2,900 elements in bands, then written in pieces.
            let within = try await client.execute(uri: "/v1/feeds/column/layouts/390/rect?rect=0,0,390,87000", method: .get)
            #expect(within.status == .ok)
            #expect(within.text == cli.stdout)
            let over = try await client.execute(uri: "/v1/feeds/column/layouts/390/rect?rect=0,0,390,90030", method: .get)
            #expect(over.status == .badRequest)
            #expect(over.problem["detail"] as? String == "the rect holds at least 3001 elements, more than the server's limit of 3000 elements per answer; "
                + "ask for smaller rects: split this one along the scroll axis (parts of 90000 points hold about 3000 elements of this layout on average)")
        }
    }

    @Test("tessera-server takes --max-answer-elements")
    func flag() async throws {
        let fixture = try await ServerFixture()
        let server = try ServerProcessTests.Running(["--db", fixture.path, "--max-answer-elements", "100", "--log-level", "warning"])
        defer { _ = server.stop() }
        let refused = try ServerProcessTests.get(port: server.port, "/v1/feeds/feed/layouts/390/rect?rect=0,0,390,1e9")
        #expect(refused.hasPrefix("HTTP/1.1 400 "), "\(refused)")
        #expect(refused.contains("more than the server's limit of 100 elements per answer"), "\(refused)")
        let visible = try ServerProcessTests.get(port: server.port, "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844")
        #expect(visible.hasPrefix("HTTP/1.1 200 "))
    }

    @Test("large answers being sent hold at most --max-elements-in-flight together; past it 503 with Retry-After")
    func inFlight() async throws {
        let fixture = try await ServerFixture()
        try await fixture.store.save(try Spec(jsonText: Self.column), as: "column", crossExtents: [390])
        let server = try ServerProcessTests.Running(["--db", fixture.path, "--max-elements-in-flight", "45000", "--log-level", "warning"])
        defer { _ = server.stop() }
        // 40,000 elements (4.8 MB) to a client that reads none of them.
        var slow: LoopbackSocket? = try LoopbackSocket(port: server.port, receiveBuffer: 4096)
        slow?.send("GET /v1/feeds/column/layouts/390/rect?rect=0,0,390,1200000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        // Its head is sent once its elements are leased (up to 20 s on a loaded machine).
        let head = slow?.firstBytes(within: 20) ?? ""
        #expect(head.hasPrefix("HTTP/1.1 200 "), "\(head.prefix(300))")
        let second = "/v1/feeds/column/layouts/390/rect?rect=0,0,390,300000"
        let refused = try ServerProcessTests.get(port: server.port, second)
        #expect(refused.hasPrefix("HTTP/1.1 503 ") && refused.contains("Retry-After: 1\r\n"), "\(refused.prefix(300))")
        #expect(refused.contains("would pass the server's limit of 45000 elements in large answers being sent at once"), "\(refused.prefix(300))")
        // Small answers are not held back.
        #expect(try ServerProcessTests.get(port: server.port, "/v1/feeds/column/layouts/390/visible?rect=0,0,390,844").hasPrefix("HTTP/1.1 200 "))
        // The slow client gone, its elements are given back.
        slow = nil
        var served = ""
        for _ in 0..<30 where !served.hasPrefix("HTTP/1.1 200 ") {
            usleep(100_000)
            served = try ServerProcessTests.get(port: server.port, second)
        }
        #expect(served.hasPrefix("HTTP/1.1 200 "), "\(served.prefix(300))")
        withExtendedLifetime(slow) {}
    }
}
