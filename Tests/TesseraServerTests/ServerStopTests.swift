import Foundation
import Testing

/// `tessera-server` stopped by a signal leaves its store in one file: the
/// database file copied alone answers exactly as the store did.
@Suite("server: a stopped server leaves the store in one file", .timeLimit(.minutes(2)))
struct ServerStopTests {
    typealias Running = ServerProcessTests.Running

    /// What `tessera` answers from the store at `path`.
    static func answers(_ path: String) throws -> [String] {
        var result: [String] = []
        for name in ["feed", "shelf"] {
            for query in [["--rect", "0,0,2000,6000"], ["--viewport", "0,300,390,844"]] {
                let output = try Executable.run("tessera", ["query", "--db", path, "--name", name, "--width", "390", "--format", "json"] + query)
                result.append("\(output.status) \(output.stdout) \(output.stderr)")
            }
        }
        return result
    }

    @Test("after a PUT, a POST and a DELETE, SIGTERM or SIGINT leaves no -wal or -shm, and the file alone answers as the store", arguments: [SIGTERM, SIGINT])
    func stopLeavesOneFile(signal: Int32) async throws {
        let fixture = try await ServerFixture()
        // The server must be the store's only user, as in production.
        fixture.store.close()
        let token = try fixture.file("token", "s3cret\n")
        let server = try Running(["--db", fixture.path, "--token-file", token, "--log-level", "warning"])
        func send(_ method: String, _ target: String, _ body: String) throws -> String {
            try ServerProcessTests.exchange(port: server.port, "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                + "Authorization: Bearer s3cret\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        let shelf = #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2}, "items": {"count": 800, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}]}}]}"#
        #expect(try send("PUT", "/v1/feeds/shelf?extent=390&extent=820", shelf).hasPrefix("HTTP/1.1 201 "))
        #expect(try send("POST", "/v1/feeds/feed/sections/2/items", String(repeating: "{}\n", count: 40)).hasPrefix("HTTP/1.1 200 "))
        #expect(try send("DELETE", "/v1/feeds/shelf/layouts/820", "").hasPrefix("HTTP/1.1 204 "))
        kill(server.process.processIdentifier, signal)
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        for suffix in ["-wal", "-shm", "-reserve"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.path + suffix), "the server left \(suffix) beside the store")
        }
        let copy = fixture.directory.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: copy)
        let original = try Self.answers(fixture.path)
        #expect(try Self.answers(copy) == original)
        #expect(original.allSatisfy { $0.hasPrefix("0 ") && $0.contains("\"cell\"") }, "\(original)")
    }
}
