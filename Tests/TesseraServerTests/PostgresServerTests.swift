import Foundation
import Testing
import TesseraBackends
import TesseraStore
import TesseraTestSupport

/// `tessera-server --db postgres://…`: the same routes, answered from a
/// PostgreSQL store. Needs the binaries built with the trait PostgreSQL
/// (`swift test --traits PostgreSQL`).
@Suite("server: on a PostgreSQL store", .timeLimit(.minutes(2)))
struct PostgresServerTests {
    @Test("serves what the CLI answers from the same PostgreSQL store, computes a new width, and takes a write")
    func servesPostgres() async throws {
        let fixture = try await ServerFixture()
        let url = try PostgresTestServer.freshStoreURL()
        // Migrated here, awaited: a child that migrated it would wait for the database's migration lock, which another
        // test's store may hold while blocking waits (this suite's among them) occupy every thread of the cooperative pool.
        try await LayoutStore.open(db: url).close()
        // The fixture's spec, stored in PostgreSQL by the CLI.
        let specPath = try fixture.file("feed.json", ServerFixture.feed)
        let precompute = try Executable.run("tessera", ["precompute", specPath, "--db", url, "--name", "feed", "--width", "390"])
        #expect(precompute.status == 0, "\(precompute.stderr)")
        let token = try fixture.file("token", "s3cret\n")
        let server = try ServerProcessTests.Running(["--db", url, "--token-file", token, "--log-level", "warning"])
        #expect(server.firstLine == "listening on http://127.0.0.1:\(server.port)")

        for (path, arguments) in [
            ("/v1/feeds/feed/layouts/390/visible?rect=0,700,390,844", ["--width", "390", "--viewport", "0,700,390,844"]),
            ("/v1/feeds/feed/layouts/430/rect?rect=0,0,430,600", ["--width", "430", "--rect", "0,0,430,600"]),
        ] {
            let answer = try ServerProcessTests.get(port: server.port, path)
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(answer)")
            let cli = try Executable.run("tessera", ["query", "--db", url, "--name", "feed"] + arguments + ["--format", "json"])
            #expect(answer.hasSuffix("\r\n\r\n" + cli.stdout), "\(path)")
        }
        let body = "{}\n"
        let post = try ServerProcessTests.exchange(port: server.port, "POST /v1/feeds/feed/sections/0/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\nAuthorization: Bearer s3cret\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(post.hasPrefix("HTTP/1.1 200 "), "\(post)")
        let unknown = try ServerProcessTests.get(port: server.port, "/v1/feeds/nope")
        #expect(unknown.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(server.stop() == 0)
    }

    @Test("refuses a PostgreSQL URL without a store, and never creates one")
    func refusesMissingStore() throws {
        let url = try PostgresTestServer.freshStoreURL()
        let output = try Executable.run("tessera-server", ["--db", url, "--port", "0"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("no store at"), "\(output.stderr)")
        #expect(try Executable.run("tessera", ["list", "--db", url]).stderr.contains("no store at"))
    }
}
