import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `tessera-server` binary, as a supervisor starts it.
@Suite("server: the tessera-server process", .timeLimit(.minutes(2)))
struct ServerProcessTests {
    /// A running server and the port it printed.
    final class Running {
        let process = Process()
        let port: Int
        let firstLine: String
        private let output = Pipe()
        let errors = Pipe()

        init(_ arguments: [String], executable: URL = Executable.url("tessera-server")) throws {
            process.executableURL = executable
            process.arguments = arguments + ["--port", "0"]
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
            firstLine = String(decoding: line, as: UTF8.self)
            port = Int(firstLine.split(separator: ":").last ?? "") ?? 0
        }

        /// SIGTERM, then the exit status.
        func stop() -> Int32 {
            process.terminate()
            process.waitUntilExit()
            return process.terminationStatus
        }

        /// The rest of standard output after the first line.
        func remainingOutput() -> String {
            String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
    }

    /// One HTTP/1.1 exchange on a new loopback connection; the whole answer as text.
    static func exchange(port: Int, _ request: String) throws -> String {
        let socket = try LoopbackSocket(port: port)
        guard socket.send(request) else { throw POSIXError(.EIO) }
        return socket.read(for: 60).text
    }

    static func get(port: Int, _ path: String) throws -> String {
        try exchange(port: port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    }

    @Test("prints its address, serves the contract's JSON, and exits 0 on SIGTERM")
    func lifecycle() async throws {
        let fixture = try await ServerFixture()
        let server = try Running(["--db", fixture.path])
        #expect(server.firstLine == "listening on http://127.0.0.1:\(server.port)")
        let health = try Self.get(port: server.port, "/v1/health")
        #expect(health.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(health.hasSuffix("\r\n\r\n{\"status\": \"ok\"}\n"))
        let cli = try Executable.run("tessera", ["query", "--db", fixture.path, "--name", "feed", "--width", "390", "--viewport", "0,700,390,844", "--format", "json"])
        let visible = try Self.get(port: server.port, "/v1/feeds/feed/layouts/390/visible?rect=0,700,390,844")
        #expect(visible.hasSuffix("\r\n\r\n" + cli.stdout))
        let unknown = try Self.get(port: server.port, "/v1/feeds/nope")
        #expect(unknown.hasPrefix("HTTP/1.1 404 Not Found\r\n") && unknown.contains("Content-Type: application/problem+json\r\n"))
        #expect(server.stop() == 0)
        #expect(server.remainingOutput().isEmpty)
        let log = String(decoding: server.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.split(separator: "\n").filter { $0.contains(" request") && $0.contains("status=") }.count == 3, "\(log)")
    }

    @Test("writes with the token file's token; SIGINT ends it too")
    func tokenFile() async throws {
        let fixture = try await ServerFixture()
        let token = try fixture.file("token", "  s3cret\n\n")
        let server = try Running(["--db", fixture.path, "--token-file", token, "--log-level", "warning"])
        let body = "{}\n"
        func post(_ authorization: String) throws -> String {
            try Self.exchange(port: server.port, "POST /v1/feeds/feed/sections/2/items HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "\(authorization)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        #expect(try post("").hasPrefix("HTTP/1.1 401 "))
        #expect(try post("Authorization: Bearer wrong\r\n").hasPrefix("HTTP/1.1 401 "))
        #expect(try post("Authorization: Bearer s3cret\r\n").hasPrefix("HTTP/1.1 200 "))
        server.process.interrupt()
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        #expect(try await fixture.store.spec(named: "feed")?.sections[2].items.knownCount == 51)
    }

    @Test("refuses to start without a store, or with bad options, saying why", arguments: [
        (["--db", "missing.sqlite"], "no store at 'missing.sqlite'"),
        (["--db", "EMPTY"], "is not a Tessera store"),
        // Refused by its kind, before a read of its header would wait for a writer.
        (["--db", "FIFO"], "is a FIFO, not a store file"),
        (["--db", "STORE", "--compute-extents", "300-200"], "--compute-extents: MIN must be above 0 and not above MAX"),
        (["--db", "STORE", "--compute-extents", "abc"], "--compute-extents takes MIN-MAX"),
        (["--db", "STORE", "--max-extents", "0"], "--max-extents must be 1 or more"),
        (["--db", "STORE", "--tile-cache-bytes=-1"], "--tile-cache-bytes must be 0 or more, got -1"),
        (["--db", "STORE", "--token-file", "missing-token"], "--token-file: cannot read 'missing-token'"),
        (["--db", "STORE", "--token-file", "EMPTY"], "holds no token"),
    ])
    func refusals(arguments: [String], message: String) async throws {
        let fixture = try await ServerFixture()
        let empty = try fixture.file("empty", " \n")
        let fifo = fixture.directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let resolved = arguments.map { $0 == "STORE" ? fixture.path : $0 == "EMPTY" ? empty : $0 == "FIFO" ? fifo : $0 }
        let output = try Executable.run("tessera-server", resolved + ["--port", "0"])
        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.contains(message), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "missing.sqlite"))
        #expect(FileManager.default.contents(atPath: empty) == Data(" \n".utf8))
    }
}
