import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HummingbirdTesting
import Testing

/// The viewer's files: served at `/viewer/` by `tessera-server --viewer`
/// (404 without it), written by `tessera export --tiles` with the listing of
/// what the export holds, byte for byte their one source in `Clients/`, and
/// there when the binaries are moved away from the build folder.
@Suite("viewer: served and exported files", .timeLimit(.minutes(2)))
struct ViewerFilesTests {
    /// Each file of the viewer's folder and its source in the repository.
    static let sources = [
        ("index.html", "Clients/Viewer/index.html", "text/html; charset=utf-8"),
        ("viewer.js", "Clients/Viewer/viewer.js", "text/javascript; charset=utf-8"),
        ("tessera-tiles.js", "Clients/JavaScript/tessera-tiles.mjs", "text/javascript; charset=utf-8"),
    ]

    static func source(_ path: String) -> String {
        (try? String(contentsOfFile: ServerFixture.repository + "/" + path, encoding: .utf8)) ?? "missing: \(path)"
    }

    @Test("--viewer: the page, its modules and viewer.json, as their sources say; /viewer moves to /viewer/; HEAD")
    func served() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application(viewer: true).test(.router) { client in
            for (name, path, type) in Self.sources {
                let answer = try await client.execute(uri: "/viewer/\(name)", method: .get)
                #expect(answer.status == .ok && answer.headers[.contentType] == type, "\(name)")
                #expect(answer.headers[.cacheControl] == "no-cache" && answer.headers[.xContentTypeOptions] == "nosniff")
                #expect(answer.text == Self.source(path), "\(name) differs from \(path)")
            }
            let page = try await client.execute(uri: "/viewer/", method: .get)
            #expect(page.status == .ok && page.text == Self.source("Clients/Viewer/index.html"))
            let moved = try await client.execute(uri: "/viewer?feed=feed", method: .get)
            #expect(moved.status == .movedPermanently && moved.headers[.location] == "/viewer/?feed=feed")
            let source = try await client.execute(uri: "/viewer/viewer.json", method: .get)
            #expect(source.status == .ok && source.headers[.contentType] == "application/json")
            #expect(source.text == #"{"source": "server", "api": "../"}"# + "\n")
            let head = try await client.execute(uri: "/viewer/viewer.js", method: .head)
            #expect(head.status == .ok && head.body.readableBytes == 0)
            let other = try await client.execute(uri: "/viewer/other.js", method: .get)
            #expect(other.status == .notFound)
        }
    }

    @Test("without --viewer, /viewer/ and its files answer 404 as before")
    func absent() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for uri in ["/viewer", "/viewer/", "/viewer/index.html", "/viewer/viewer.js", "/viewer/tessera-tiles.js", "/viewer/viewer.json"] {
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(answer.status == .notFound && answer.headers[.contentType] == "application/problem+json", "\(uri)")
            }
        }
    }

    @Test("export --tiles writes the viewer beside the tiles, and viewer.json lists every layout exported into the folder")
    func exported() async throws {
        let fixture = try await ServerFixture(extents: [390, 430])
        try await fixture.store.save(try .init(jsonText: ServerFixture.feed), as: "other", crossExtents: [500])
        let folder = fixture.directory.appendingPathComponent("static").path
        for arguments in [["--name", "feed", "--width", "390"], ["--name", "feed", "--width", "430", "--rtl"], ["--name", "other", "--width", "500"]] {
            let output = try Executable.run("tessera", ["export", "--db", fixture.path, "--tiles", folder] + arguments)
            #expect(output.status == 0, "\(output.stderr)")
        }
        for (name, path, _) in Self.sources {
            #expect((try? String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)) == Self.source(path), "\(name)")
        }
        // Read as plain JSON: the listing's shape as the page reads it.
        let listing = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/viewer.json"))) as? [String: Any]
        let specs = listing?["specs"] as? [[String: Any]] ?? []
        #expect(listing?["source"] as? String == "export")
        #expect(specs.map { $0["name"] as? String } == ["feed", "other"] && specs.map { $0["axis"] as? String } == ["vertical", "vertical"])
        let layouts = specs.map { $0["layouts"] as? [[String: Any]] ?? [] }
        #expect(layouts.first?.map { $0["extent"] as? Double } == [390, 430] && layouts.first?.map { $0["rtl"] as? Bool } == [false, true])
        for (spec, layouts) in zip(specs, layouts) {
            for layout in layouts {
                let manifest = "\(folder)/v1/feeds/\(spec["name"] as? String ?? "")/layouts/\(Int(layout["extent"] as? Double ?? 0))/tiles"
                let text = (try? String(contentsOfFile: manifest, encoding: .utf8)) ?? ""
                let revision = layout["revision"] as? String ?? "?"
                let tiles = layout["tileCount"] as? Int ?? -1
                #expect(text.contains(#""revision": "\#(revision)""#) && text.contains(#""tileCount": \#(tiles)"#), "\(manifest)")
            }
        }
        // A viewer.json it did not write is refused, and the folder is left as it was.
        try "{\"source\": \"elsewhere\"}".write(toFile: folder + "/viewer.json", atomically: true, encoding: .utf8)
        let refused = try Executable.run("tessera", ["export", "--db", fixture.path, "--tiles", folder, "--name", "feed", "--width", "390"])
        #expect(refused.status != 0 && refused.stderr.contains("is not the viewer listing tessera export writes"), "\(refused.stderr)")
        #expect((try? String(contentsOfFile: folder + "/viewer.json", encoding: .utf8)) == "{\"source\": \"elsewhere\"}")
    }

    /// Copies an executable through a descriptor closed on exec. A copy's
    /// descriptor that a process started meanwhile by another test inherits
    /// keeps the copy "text file busy" (ETXTBSY) for as long as that process lives.
    static func copyExecutable(_ source: URL, to destination: URL) throws {
        let bytes = try Data(contentsOf: source)
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { raw in
            var written = 0
            while written < raw.count, let base = raw.baseAddress {
                let count = write(descriptor, base + written, raw.count - written)
                guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                written += count
            }
        }
    }

    /// Runs `launch` again while it fails with ETXTBSY: a process another test
    /// forks holds the copy's descriptor until it execs, however short that is.
    static func retryingTextFileBusy<T>(_ launch: () throws -> T) throws -> T {
        for _ in 0..<50 {
            do {
                return try launch()
            } catch let error as NSError {
                let cause = error.userInfo[NSUnderlyingErrorKey] as? NSError ?? error
                guard cause.domain == NSPOSIXErrorDomain, cause.code == Int(ETXTBSY) else { throw error }
                usleep(20_000)
            }
        }
        return try launch()
    }

    @Test("moved out of the build folder, tessera-server --viewer serves the page and tessera export writes it")
    func movedBinaries() async throws {
        let fixture = try await ServerFixture()
        let elsewhere = fixture.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        for name in ["tessera", "tessera-server"] {
            try Self.copyExecutable(Executable.url(name), to: elsewhere.appendingPathComponent(name))
        }
        let server = try Self.retryingTextFileBusy {
            try ServerProcessTests.Running(
                ["--db", fixture.path, "--viewer", "--log-level", "warning"], executable: elsewhere.appendingPathComponent("tessera-server"))
        }
        defer { _ = server.stop() }
        let port = server.port
        let page = try ServerProcessTests.get(port: port, "/viewer/viewer.js")
        #expect(page.hasPrefix("HTTP/1.1 200 ") && page.hasSuffix("\r\n\r\n" + Self.source("Clients/Viewer/viewer.js")), "\(page.prefix(300))")

        let folder = fixture.directory.appendingPathComponent("static").path
        let export = try Self.retryingTextFileBusy {
            let process = Process()
            process.executableURL = elsewhere.appendingPathComponent("tessera")
            process.arguments = ["export", "--db", fixture.path, "--tiles", folder, "--name", "feed", "--width", "390"]
            try process.run()
            return process
        }
        export.waitUntilExit()
        #expect(export.terminationStatus == 0)
        #expect((try? String(contentsOfFile: folder + "/tessera-tiles.js", encoding: .utf8)) == Self.source("Clients/JavaScript/tessera-tiles.mjs"))
    }
}
