import Foundation
import Testing

/// The real `tessera-server` while large pages of the listing are in flight.
@Suite("server: the listing under load", .timeLimit(.minutes(6)))
struct ListingLoadTests {
    typealias Running = ServerProcessTests.Running

    /// `count` small specs added to the fixture's store by `tessera precompute --specs`, each laid out at 390.
    static func addSpecs(_ count: Int, to fixture: ServerFixture) throws {
        let lines = (0..<count).map { index in
            #"{"format": 1, "name": "f-\#(String(1_000_000 + index).dropFirst())", "sections": [{"layout": {"kind": "grid", "fraction": 1}, "items": {"count": 3, "cycle": [{}]}}]}"#
        }
        let file = try fixture.file("specs.ndjson", lines.joined(separator: "\n"))
        let made = try Executable.run("tessera", ["precompute", "--specs", file, "--db", fixture.path, "--width", "390"])
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// The process's resident memory now, in bytes (VmRSS).
    static func residentBytes(_ process: Process) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    @Test("health answers while 32 pages of 10,000 specs are in flight to clients that do not read; each holds the server to a piece of its page")
    func healthBesideLargePages() async throws {
        let fixture = try await ServerFixture()
        try Self.addSpecs(12_000, to: fixture)
        let server = try Running(["--db", fixture.path, "--log-level", "warning"])
        defer { _ = server.stop() }
        let page = "GET /v1/feeds?limit=10000 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        // One page read whole first: what the others would be, and the server warmed up.
        let whole = try ServerProcessTests.exchange(port: server.port, page)
        #expect(whole.hasPrefix("HTTP/1.1 200 OK\r\n") && whole.hasSuffix("\"next\": \"f-009999\"}\n\r\n0\r\n\r\n"), "\(whole.suffix(200))")
        let before = Self.residentBytes(server.process)
        let stalled = try (0..<32).map { _ in
            let client = try LoopbackSocket(port: server.port, receiveBuffer: 4096)
            client.send(page)
            return client
        }
        for client in stalled {
            #expect(client.firstBytes(within: 60).hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
        let health = try ServerProcessTests.exchange(port: server.port, "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n") && health.hasSuffix("{\"status\": \"ok\"}\n"), "\(health)")
        // Each page waits for its client after a piece (about 100 KB) in
        // the server's memory, never made whole first.
        let grown = Self.residentBytes(server.process) - before
        #expect(grown < 48 << 20, "the server grew by \(grown >> 20) MB with 32 pages in flight")
        // A client that reads on gets its whole page.
        let reader = stalled[0].read(for: 150)
        #expect(reader.closed && reader.text.hasSuffix("\"next\": \"f-009999\"}\n\r\n0\r\n\r\n"))
    }
}
