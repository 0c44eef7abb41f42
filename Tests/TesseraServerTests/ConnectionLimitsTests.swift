import Foundation
import Testing

/// The real `tessera-server` against clients that stall, stop midway, never
/// read or never leave: every wait ends, every descriptor is given back.
@Suite("server: connection limits of the tessera-server process", .timeLimit(.minutes(2)))
struct ConnectionLimitsTests {
    typealias Running = ServerProcessTests.Running

    @Test("a connection that sends nothing is closed after --idle-timeout")
    func idle() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path, "--idle-timeout", "0.5", "--log-level", "warning"])
        defer { _ = server.stop() }
        let started = Date()
        let quiet = try LoopbackSocket(port: server.port)
        let answer = quiet.read(for: 4)
        #expect(answer.closed && answer.text.isEmpty)
        #expect(Date().timeIntervalSince(started) >= 0.4)
        // A kept-alive connection, once answered, is idle as well.
        let kept = try LoopbackSocket(port: server.port)
        kept.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let health = kept.read(for: 4)
        #expect(health.closed && health.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(health.text)")
    }

    @Test("half a request head is answered 408 after --header-timeout, and the connection closed")
    func halfHead() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path, "--header-timeout", "0.5", "--log-level", "warning"])
        defer { _ = server.stop() }
        let client = try LoopbackSocket(port: server.port)
        client.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        let answer = client.read(for: 4)
        #expect(answer.closed)
        #expect(answer.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer.text)")
        #expect(answer.text.contains("(--header-timeout)"), "\(answer.text)")
    }

    @Test("half a body, or a chunked body that never ends, is answered 408 after --body-timeout", arguments: [false, true])
    func slowBody(chunked: Bool) async throws {
        let fixture = try await ServerFixture()
        let token = try fixture.file("token", "s3cret")
        let server = try Running(["--db", fixture.path, "--token-file", token, "--body-timeout", "1", "--log-level", "warning"])
        defer { _ = server.stop() }
        let client = try LoopbackSocket(port: server.port)
        let started = Date()
        let framing = chunked ? "Transfer-Encoding: chunked" : "Content-Length: 1000"
        client.send("POST /v1/feeds/feed/sections/2/items HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\n\(framing)\r\n\r\n")
        if chunked {
            // A line of an item every 100 ms, never the last chunk.
            while Date().timeIntervalSince(started) < 2.5, client.send("3\r\n{}\n\r\n") { usleep(100_000) }
        } else {
            client.send("{}\n{}\n")
        }
        let answer = client.read(for: 4)
        #expect(answer.closed)
        #expect(answer.text.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"), "\(answer.text)")
        #expect(answer.text.contains("(--body-timeout)"), "\(answer.text)")
        #expect(Date().timeIntervalSince(started) < 6)
        #expect(try await fixture.store.spec(named: "feed")?.sections[2].items.knownCount == 50)
    }

    @Test("a body that ends early is 400, not a server error")
    func truncatedBody() async throws {
        let fixture = try await ServerFixture()
        let token = try fixture.file("token", "s3cret")
        let server = try Running(["--db", fixture.path, "--token-file", token])
        let client = try LoopbackSocket(port: server.port)
        client.send("PUT /v1/feeds/other HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\nContent-Length: 1000\r\n\r\n{\"format\": 1,")
        client.finishSending()
        let answer = client.read(for: 4)
        #expect(answer.text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer.text)")
        #expect(answer.text.contains("ended before"), "\(answer.text)")
        #expect(answer.closed)
        #expect(server.stop() == 0)
        let log = String(decoding: server.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("status=400") && !log.contains("status=500"), "\(log)")
    }

    @Test("HTTP/1.0 without keep-alive, and Connection: Close in any case, is answered and closed")
    func closingRequests() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path, "--log-level", "warning"])
        defer { _ = server.stop() }
        let cli = try Executable.run("tessera", ["query", "--db", fixture.path, "--name", "feed", "--width", "390", "--rect", "0,0,390,1e9", "--format", "json"])
        let old = try LoopbackSocket(port: server.port)
        old.send("GET /v1/feeds/feed/layouts/390/rect?rect=0,0,390,1e9 HTTP/1.0\r\n\r\n")
        let answer = old.read(for: 4)
        #expect(answer.closed)
        #expect(answer.text.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(answer.text.prefix(200))")
        #expect(answer.text.hasSuffix("\r\n\r\n" + cli.stdout))
        #expect(!answer.text.lowercased().contains("transfer-encoding"))
        let kept = try LoopbackSocket(port: server.port)
        kept.send("GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let keptAnswer = kept.read(for: 0.5)
        #expect(!keptAnswer.closed && keptAnswer.text.hasPrefix("HTTP/1.0 200 OK\r\n"), "\(keptAnswer.text)")
        let capital = try LoopbackSocket(port: server.port)
        capital.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Close\r\n\r\n")
        let capitalAnswer = capital.read(for: 4)
        #expect(capitalAnswer.closed && capitalAnswer.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(capitalAnswer.text)")
    }

    @Test("100 clients sending oversized heads and keeping their end open leave no descriptor behind")
    func descriptors() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path, "--log-level", "warning"])
        defer { _ = server.stop() }
        // Once a connection was served: the store's files are open by then.
        _ = try ServerProcessTests.get(port: server.port, "/v1/health")
        let before = openDescriptors(of: server.process)
        let oversized = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n"
        var clients: [LoopbackSocket] = []
        for _ in 0..<100 {
            let client = try LoopbackSocket(port: server.port)
            client.send(oversized)
            let answer = client.read(for: 4)
            #expect(answer.text.hasPrefix("HTTP/1.1 400 "), "\(answer.text)")
            clients.append(client)
        }
        var after = openDescriptors(of: server.process)
        let deadline = Date().addingTimeInterval(8)
        while after > before + 4, Date() < deadline {
            usleep(100_000)
            after = openDescriptors(of: server.process)
        }
        #expect(after <= before + 4, "\(before) descriptors before the clients, \(after) after")
        withExtendedLifetime(clients) {}
    }

    @Test("at --max-connections, the connection idle the longest makes room for a new one")
    func connectionCap() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path, "--max-connections", "4", "--log-level", "warning"])
        defer { _ = server.stop() }
        let idle = try (0..<4).map { _ in try LoopbackSocket(port: server.port) }
        usleep(200_000)
        let client = try LoopbackSocket(port: server.port)
        client.send("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let answer = client.read(for: 3)
        #expect(answer.closed && answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer.text)")
        #expect(idle.contains { $0.read(for: 0.5).closed })
    }

    @Test("refuses limits out of range", arguments: [
        (["--idle-timeout", "0"], "--idle-timeout takes seconds above 0"),
        (["--header-timeout=-1"], "--header-timeout takes seconds above 0"),
        (["--body-timeout", "nan"], "--body-timeout takes seconds above 0"),
        (["--max-connections", "0"], "--max-connections must be 1 or more"),
        (["--blocking-threads", "0"], "--blocking-threads must be from 1 to 256, got 0"),
        (["--max-answer-elements", "0"], "--max-answer-elements must be 1 or more"),
        (["--disk-reserve=-1"], "--disk-reserve must be 0 or more"),
    ])
    func refusals(arguments: [String], message: String) async throws {
        let fixture = try await ServerFixture()
        let output = try Executable.run("tessera-server", ["--db", fixture.path, "--port", "0"] + arguments)
        #expect(output.status != 0 && output.stdout.isEmpty)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }
}
