import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The real `tessera-server` on a store whose disk is full: a small tmpfs
/// filled to the last byte (so root only, where `mount` works).
@Suite("server: a full disk", .timeLimit(.minutes(2)))
struct FullDiskTests {
    static var canMount: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }

    /// Runs a system tool to its end; its exit status.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test("DELETE of a spec works with the disk full: the server gives its --disk-reserve back", .enabled(if: canMount))
    func deleteOnFullDisk() throws {
        try Self.withTmpfs(items: 100000) { folder in try deleteOnFullDisk(folder) }
    }

    /// A 16 MiB tmpfs mounted on a new folder for `body`, holding `spec.json`
    /// (a grid of `items` items) and `token` (s3cret); unmounted and removed after.
    static func withTmpfs(items: Int, _ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tmpfs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", folder]) == 0)
        defer { try? Self.run("/bin/umount", [folder]) }
        try #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": \#(items), "cycle": [{}]}}]}"#
            .write(toFile: folder + "/spec.json", atomically: false, encoding: .utf8)
        try "s3cret".write(toFile: folder + "/token", atomically: false, encoding: .utf8)
        try body(folder)
    }

    /// Reads a viewport of feed `a` at 390 from `server` (it must answer
    /// 200), then posts an item to it with the token: the post's answer.
    static func readAndWrite(_ server: ServerProcessTests.Running) throws -> String {
        let visible = try ServerProcessTests.get(port: server.port, "/v1/feeds/a/layouts/390/visible?rect=0,0,390,844")
        #expect(visible.hasPrefix("HTTP/1.1 200 "), "\(visible)")
        let body = "{}\n"
        return try ServerProcessTests.exchange(port: server.port, "POST /v1/feeds/a/sections/0/items HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            + "Connection: close\r\nAuthorization: Bearer s3cret\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
    }

    /// Stops `server` (it must exit 0); what it wrote to standard error.
    static func stopped(_ server: ServerProcessTests.Running) -> String {
        #expect(server.stop() == 0)
        return String(decoding: server.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    private func deleteOnFullDisk(_ folder: String) throws {
        let spec = folder + "/spec.json"
        let store = folder + "/feeds.sqlite"
        for name in ["a", "b"] {
            #expect(try Executable.run("tessera", ["precompute", spec, "--db", store, "--name", name, "--width", "390"]).status == 0)
        }
        let server = try ServerProcessTests.Running(["--db", store, "--token-file", folder + "/token", "--disk-reserve", "4194304", "--log-level", "warning"])
        defer { _ = server.stop() }
        #expect(FileManager.default.fileExists(atPath: store + "-reserve"))
        // The disk to its last byte (dd ends with ENOSPC).
        try Self.run("/bin/dd", ["if=/dev/zero", "of=\(folder)/filler", "bs=64k"])
        let authorization = "Authorization: Bearer s3cret\r\n"
        let body = try String(contentsOfFile: spec, encoding: .utf8)
        let put = try ServerProcessTests.exchange(port: server.port, "PUT /v1/feeds/c?extent=390 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + "\(authorization)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(put.hasPrefix("HTTP/1.1 507 "), "\(put)")
        let delete = try ServerProcessTests.exchange(port: server.port, "DELETE /v1/feeds/a HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(authorization)\r\n")
        #expect(delete.hasPrefix("HTTP/1.1 204 "), "\(delete)")
        let feeds = try ServerProcessTests.get(port: server.port, "/v1/feeds")
        #expect(feeds.contains("\"name\": \"b\"") && !feeds.contains("\"name\": \"a\""), "\(feeds)")
        #expect(server.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: store + "-reserve"))
    }

    @Test("a store on a read-only file system is served: the server says so at start, reads answer, writes get a 503 naming EROFS",
          .enabled(if: canMount))
    func readOnlyFileSystem() throws {
        try Self.withTmpfs(items: 3000) { folder in try readOnlyFileSystem(folder) }
    }

    private func readOnlyFileSystem(_ folder: String) throws {
        let spec = folder + "/spec.json"
        let store = folder + "/feeds.sqlite"
        #expect(try Executable.run("tessera", ["precompute", spec, "--db", store, "--name", "a", "--width", "390"]).status == 0)
        // The store and an export of it: both are served.
        #expect(try Executable.run("tessera", ["export", "--db", store, "--out", folder + "/copy.sqlite"]).status == 0)
        try #require(try Self.run("/bin/mount", ["-o", "remount,ro", folder]) == 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        for db in [store, folder + "/copy.sqlite"] {
            let server = try ServerProcessTests.Running(["--db", db, "--token-file", folder + "/token", "--log-level", "warning"])
            #expect(server.port != 0, "the server did not start on \(db)")
            let feeds = try ServerProcessTests.get(port: server.port, "/v1/feeds")
            #expect(feeds.hasPrefix("HTTP/1.1 200 ") && feeds.contains("\"name\": \"a\""), "\(feeds)")
            let post = try Self.readAndWrite(server)
            #expect(post.hasPrefix("HTTP/1.1 503 ") && post.contains("application/problem+json"), "\(post)")
            #expect(post.contains("read-only file system (EROFS)"), "\(post)")
            let log = Self.stopped(server)
            #expect(log.contains("is on a read-only file system: serving its reads; writes answer 503"), "\(log)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
    }

    @Test("a store whose disk filled under a failed append (a short -shm beside it) is served read-only; writes answer 507",
          .enabled(if: canMount))
    func startOnFullDisk() throws {
        try Self.withTmpfs(items: 3000) { folder in
            let store = folder + "/feeds.sqlite"
            #expect(try Executable.run("tessera", ["precompute", folder + "/spec.json", "--db", store, "--name", "a", "--width", "390"]).status == 0)
            let items = folder + "/items.ndjson"
            try "{}\n".write(toFile: items, atomically: false, encoding: .utf8)
            try Self.run("/bin/dd", ["if=/dev/zero", "of=\(folder)/filler", "bs=64k"])
            let append = try Executable.run("tessera", ["append", "--db", store, "--name", "a", "--section", "0", items])
            #expect(append.status != 0)
            let server = try ServerProcessTests.Running(["--db", store, "--token-file", folder + "/token", "--disk-reserve", "0", "--log-level", "warning"])
            #expect(server.port != 0, "the server did not start on a full disk")
            let post = try Self.readAndWrite(server)
            #expect(post.hasPrefix("HTTP/1.1 507 ") && post.contains("is full; nothing was written"), "\(post)")
            let log = Self.stopped(server)
            #expect(log.contains("is full; nothing was written") && log.contains("serving its reads; writes answer 507"), "\(log)")
        }
    }
}
