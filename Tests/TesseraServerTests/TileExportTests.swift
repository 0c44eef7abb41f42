import Foundation
import HummingbirdTesting
import Testing
import TesseraGzip
import TesseraTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// `tessera export --tiles`: files at the paths of the tile routes, byte for
/// byte the server's answers, served as they are by a real nginx.
@Suite("export: static tiles")
struct TileExportTests {
    /// Exports the fixture's feed at two widths (one not stored yet), with `.gz` files.
    static func export(_ fixture: ServerFixture) throws -> String {
        let directory = fixture.directory.appendingPathComponent("static").path
        let output = try Executable.run("tessera", [
            "export", "--db", fixture.path, "--name", "feed", "--width", "390", "--width", "430", "--tiles", directory, "--gzip", "--rtl",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("of \"feed\" at width 390, revision "), "\(output.stdout)")
        return directory
    }

    /// Every path of the export and the server's answer there: left to
    /// right at the routes' paths, right to left (`direction=rtl`) under `…/rtl/`.
    static func answers(_ fixture: ServerFixture) async throws -> [(path: String, body: String)] {
        try await fixture.application().test(.router) { client in
            var answers: [(path: String, body: String)] = []
            for width in ["390", "430"] {
                let layout = "/v1/feeds/feed/layouts/\(width)"
                for (folder, query) in [("", ""), ("/rtl", "?direction=rtl")] {
                    let manifest = try await client.execute(uri: layout + "/tiles" + query, method: .get)
                    answers.append((layout + folder + "/tiles", manifest.text))
                    let decoded = try TileRoutesTests.manifest(manifest)
                    for index in 0..<decoded.tileCount {
                        // Each tile twice: as JSON objects and as columns.
                        for template in [decoded.tiles, decoded.columnTiles] {
                            let relative = template.replacingOccurrences(of: "{index}", with: "\(index)")
                            #expect(relative.hasSuffix(query) && (query.isEmpty || relative.contains(query)))
                            let tile = try await client.execute(uri: layout + "/" + relative, method: .get)
                            #expect(tile.status == .ok)
                            answers.append((layout + folder + "/" + relative.components(separatedBy: "?")[0], tile.text))
                        }
                    }
                }
            }
            return answers
        }
    }

    @Test("the files are the server's answers byte for byte (manifests, tiles, column tiles; right to left under rtl/), each with a .gz of the same bytes")
    func filesEqualAnswers() async throws {
        let fixture = try await ServerFixture()
        let directory = try Self.export(fixture)
        let answers = try await Self.answers(fixture)
        #expect(answers.count > 8)
        #expect(answers.filter { $0.path.contains("/columns/") }.count == answers.filter { $0.path.contains("/tiles/") }.count)
        // Right to left: its own files, the tiles' bodies in rtl coordinates.
        let rtl = answers.filter { $0.path.contains("/rtl/") }
        #expect(rtl.count * 2 == answers.count)
        #expect(rtl.allSatisfy { $0.path.hasSuffix("/tiles") || $0.body.contains(#""direction": "rtl""#) })
        #expect(rtl.filter { $0.path.hasSuffix("/tiles") }.allSatisfy { $0.body.contains("/tiles/{index}?direction=rtl") })
        for (path, body) in answers {
            let file = FileManager.default.contents(atPath: directory + path)
            #expect(file == Data(body.utf8) as Data?, "\(path)")
            let compressed = FileManager.default.contents(atPath: directory + path + ".gz").map { Array($0) } ?? []
            let same = Gzip.decompress(compressed) == Array(body.utf8)
            #expect(same, "\(path).gz")
        }
    }

    @Test("refusals: --tiles without --name or a width, --name without --tiles, a name that cannot be a folder")
    func refusals() async throws {
        let fixture = try await ServerFixture()
        for (arguments, message) in [
            (["--tiles", "x", "--width", "390"], "--tiles needs --name"),
            (["--tiles", "x", "--name", "feed"], "--tiles needs one or more --width"),
            (["--name", "feed", "--width", "390"], "give --out FILE"),
            (["--out", "copy.sqlite", "--name", "feed"], "--name, --width, --height, --gzip and --rtl go with --tiles DIR"),
            (["--out", "copy.sqlite", "--rtl"], "--name, --width, --height, --gzip and --rtl go with --tiles DIR"),
            (["--tiles", "x", "--name", "a/b", "--width", "390"], "cannot be a folder name"),
        ] {
            let output = try Executable.run("tessera", ["export", "--db", fixture.path] + arguments)
            #expect(output.status != 0 && output.stderr.contains(message), "\(arguments): \(output.stderr)")
        }
    }

    @Test("a real nginx serves the export: the manifests and every tile (objects, columns, both directions) as the server answers them, as JSON, gzip from the .gz files")
    func nginx() async throws {
        let fixture = try await ServerFixture()
        let directory = try Self.export(fixture)
        let answers = try await Self.answers(fixture)
        let server = try NginxServer(root: directory, in: fixture.directory.appendingPathComponent("nginx"))
        defer { server.stop() }
        for (path, body) in answers {
            // A right-to-left tile asked as its manifest's template makes it: the query ignored, the path names the file.
            let query = path.contains("/rtl/") && !path.hasSuffix("/tiles") ? "?direction=rtl" : ""
            let response = try ServerProcessTests.get(port: server.port, path + query)
            let (head, served) = NginxServer.split(response)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(path): \(head)")
            #expect(head.lowercased().contains("content-type: application/json"), "\(path): \(head)")
            let same = served == body
            #expect(same, "\(path)")
        }
        // A tile and the same tile as columns, gzip from their .gz files.
        #expect(answers[1].path.contains("/tiles/0") && answers[2].path.contains("/columns/0"))
        for path in [answers[1].path, answers[2].path] {
            let gzipped = try ServerProcessTests.exchange(
                port: server.port, "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
            #expect(NginxServer.split(gzipped).head.lowercased().contains("content-encoding: gzip"), "\(path)")
        }
    }
}

/// nginx from the system's packages, started as an unprivileged user on
/// free loopback ports with a configuration, pid file and logs of its own,
/// serving `root` as static files (no extension: JSON; pages and modules as
/// HTML and JavaScript).
final class NginxServer {
    /// What the files are: tiles only, or the viewer beside them (`/`
    /// answered with `index.html`).
    enum Content {
        case tiles, viewer
    }

    /// The ports it listens on, each an origin of its own for a browser.
    let ports: [Int]
    var port: Int { ports[0] }
    private let process: Process
    private let prefix: URL

    /// Where nginx is: on PATH or in /usr/sbin. Missing is a failure, never a skip.
    static func executable() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/sbin", "/sbin"] {
            if FileManager.default.isExecutableFile(atPath: folder + "/nginx") { return folder + "/nginx" }
        }
        throw NginxMissing()
    }

    struct NginxMissing: Error, CustomStringConvertible {
        var description: String { "nginx was not found (PATH, /usr/sbin): install Debian's package nginx (.ci/run does), the export test needs it" }
    }

    init(root: String, in prefix: URL, serving content: Content = .tiles, portCount: Int = 1) throws {
        let nginx = try Self.executable()
        self.prefix = prefix
        try FileManager.default.createDirectory(at: prefix.appendingPathComponent("temp"), withIntermediateDirectories: true)
        ports = try (0..<portCount).map { _ in try freeLoopbackPort() }
        let temp = prefix.appendingPathComponent("temp").path
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix.path)/nginx.pid;
            error_log \(prefix.path)/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
                types { text/html html; text/javascript js mjs; }
                default_type application/json;
                server {
                    \(ports.map { "listen 127.0.0.1:\($0);" }.joined(separator: "\n            "))
                    root \(root);
                    gzip_static on;
                    location / { try_files $uri \(content == .viewer ? "$uri/ " : "")=404; }
                }
            }
            """
        try configuration.write(to: prefix.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        let arguments = ["-p", prefix.path, "-c", prefix.appendingPathComponent("nginx.conf").path, "-e", prefix.path + "/error.log"]
        process = Process()
        if getuid() == 0 {
            // As root: drop to nobody for nginx, which then needs to write its prefix and read the export.
            for path in [prefix.path, temp] { chmod(path, 0o777) }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", nginx] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = arguments
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while ports.contains(where: { (try? LoopbackSocket(port: $0)) == nil }) {
            guard process.isRunning, Date() < deadline else {
                let log = (try? String(contentsOfFile: prefix.path + "/error.log", encoding: .utf8)) ?? ""
                stop()
                throw NginxFailed(description: "nginx did not start listening on 127.0.0.1 ports \(ports): \(log)")
            }
            usleep(20_000)
        }
    }

    struct NginxFailed: Error, CustomStringConvertible {
        var description: String
    }

    /// SIGKILL: nginx run by the test process inherits its blocked signals,
    /// SIGTERM and SIGQUIT among them, and would never see them.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// An HTTP/1.1 answer's head and body.
    static func split(_ response: String) -> (head: String, body: String) {
        guard let end = response.range(of: "\r\n\r\n") else { return (response, "") }
        return (String(response[..<end.lowerBound]), String(response[end.upperBound...]))
    }
}
