import Foundation
import Testing
import TesseraTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TesseraStore's article "Running Tessera in production", run: its `sh`
/// blocks, its cron line's command and its Job's command, as written there,
/// in a temporary folder for `/srv/tessera`, against a `tessera-server`
/// started there on a free port for 8080, with the built binaries first on PATH.
@Suite("Running Tessera in production: the article's recipes, run", .timeLimit(.minutes(2)))
struct ProductionArticleTests {
    static let article = (try? String(
        contentsOfFile: "\(ServerFixture.repository)/Sources/TesseraStore/TesseraStore.docc/RunningInProduction.md", encoding: .utf8
    )) ?? ""

    /// The text of each fenced block of `language`.
    static func blocks(_ language: String) -> [String] {
        fencedBlocks(language, in: article).map { $0.joined(separator: "\n") + "\n" }
    }

    /// A folder with the feeds, a store made by the article's first block, and a server over it.
    final class Site {
        let folder: URL
        let server = Process()
        let port: Int
        private let errors: StoreSwapTests.ErrorLines
        private let output = Pipe()

        init(firstBlock: String) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-production-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: "\(ServerFixture.repository)/Examples/shop-feeds.ndjson", toPath: folder.appendingPathComponent("feeds.ndjson").path)
            // The upgrade's new build: the one under test, in new/.
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("new"), withDestinationURL: Executable.url("tessera").deletingLastPathComponent()
            )
            let made = try Self.run(firstBlock, shell: "/bin/bash", in: folder)
            #expect(made.status == 0, "\(firstBlock)\(made.output)")
            let pipe = Pipe()
            server.executableURL = Executable.url("tessera-server")
            server.arguments = ["--db", folder.appendingPathComponent("feeds.sqlite").path, "--port", "0", "--log-level", "warning"]
            server.standardOutput = output
            server.standardError = pipe
            try server.run()
            errors = StoreSwapTests.ErrorLines(pipe)
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(output.fileHandleForReading.fileDescriptor, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
            port = Int(String(decoding: line, as: UTF8.self).split(separator: ":").last ?? "") ?? 0
            try "\(server.processIdentifier)\n".write(to: folder.appendingPathComponent("tessera-server.pid"), atomically: true, encoding: .utf8)
        }

        /// `text` with the article's folder and port made this site's.
        func local(_ text: String) -> String {
            text.replacingOccurrences(of: "/srv/tessera", with: folder.path).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
        }

        /// Runs `script` here; its status and output. Bounded: killed with its children after 30 s.
        func run(_ script: String, shell: String = "/bin/bash") throws -> (status: Int32, output: String) {
            try Self.run(local(script), shell: shell, in: folder)
        }

        static func run(_ script: String, shell: String, in folder: URL) throws -> (status: Int32, output: String) {
            let log = folder.appendingPathComponent("block-\(UUID().uuidString).log")
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            defer { try? FileManager.default.removeItem(at: log) }
            let handle = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["--wait", "/usr/bin/timeout", "30", shell] + (shell == "/bin/bash" ? ["-euo", "pipefail"] : []) + ["-c", script]
            process.currentDirectoryURL = folder
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = Executable.url("tessera").deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
            process.environment = environment
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            process.waitUntilExit()
            try handle.close()
            return (process.terminationStatus, String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))
        }

        func reloads(_ count: Int) async throws {
            try await errors.wait(for: "serving the store now at", count: count)
        }

        var stderr: String { errors.all }

        func stop() -> Int32 {
            server.terminate()
            server.waitUntilExit()
            return server.terminationStatus
        }

        func remove() {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("every recipe runs as written: nightly batch (cron and Job), spec and delete, replacing, upgrading, backup and restore")
    func recipes() async throws {
        let shell = Self.blocks("sh")
        let cron = Self.blocks("crontab")
        let job = Self.blocks("yaml")
        try #require(shell.count == 6 && cron.count == 1 && job.count == 1, "the article's blocks changed: \(shell.count) sh, \(cron.count) crontab, \(job.count) yaml")
        let site = try Site(firstBlock: shell[0])
        defer { site.remove() }
        defer { if site.server.isRunning { _ = site.stop() } }
        try #require(site.port > 0)

        // The nightly script, from cron, with a bad line and a changed feed in tonight's file.
        #expect(shell[1].hasPrefix("#!/bin/sh\n# nightly.sh\n"))
        try shell[1].write(to: site.folder.appendingPathComponent("nightly.sh"), atomically: true, encoding: .utf8)
        let feeds = site.folder.appendingPathComponent("feeds.ndjson")
        var tonight = try String(contentsOf: feeds, encoding: .utf8)
        tonight = tonight.replacingOccurrences(of: "\"count\": 9,", with: "\"count\": 12,")
        tonight += "{\"format\": 1, \"name\": \"broken\", \"sections\": 3}\n{\"format\": 1, \"name\": \"shop-new\", \"sections\": [{\"layout\": {\"kind\": \"grid\", \"fraction\": 2}, \"items\": {\"count\": 8, \"cycle\": [{}]}}]}\n"
        try tonight.write(to: feeds, atomically: true, encoding: .utf8)
        let cronLine = cron[0].trimmingCharacters(in: .whitespacesAndNewlines)
        let fields = cronLine.split(separator: " ", maxSplits: 5)
        try #require(fields.count == 6, "\(cronLine)")
        let fromCron = try site.run(String(fields[5]), shell: "/bin/sh")
        #expect(fromCron.status == 0, "\(fromCron.output)")
        try await site.reloads(1)
        let log = (try? String(contentsOf: site.folder.appendingPathComponent("nightly.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("feeds.ndjson:5:") && log.contains("failed 1 specs"), "\(log)")
        #expect(try ServerProcessTests.get(port: site.port, "/v1/feeds/shop-new").hasPrefix("HTTP/1.1 200"))

        // The same script from the Job's command.
        let command = try #require(job[0].split(separator: "\n").first { $0.contains("command:") })
        let parts = command.components(separatedBy: "\"")
        try #require(parts.count >= 7 && parts[1] == "/bin/sh" && parts[3] == "-c", "\(command)")
        let fromJob = try site.run(parts[5], shell: "/bin/sh")
        #expect(fromJob.status == 0, "\(fromJob.output)")
        try await site.reloads(2)

        // spec, invalidate, delete, prune beside the running server.
        let specs = try site.run(shell[2])
        #expect(specs.status == 0, "\(shell[2])\(specs.output)")
        #expect(specs.output.contains("deleted \"shop-bo\""), "\(specs.output)")

        // Replacing, upgrading, backup and restore.
        let replaced = try site.run(shell[3])
        #expect(replaced.status == 0, "\(shell[3])\(replaced.output)")
        try await site.reloads(3)
        #expect(try ServerProcessTests.get(port: site.port, "/v1/feeds/shop-bo").hasPrefix("HTTP/1.1 404"))
        let upgraded = try site.run(shell[4])
        #expect(upgraded.status == 0, "\(shell[4])\(upgraded.output)")
        let restored = try site.run(shell[5])
        #expect(restored.status == 0, "\(shell[5])\(restored.output)")
        try await site.reloads(4)
        #expect(try ServerProcessTests.get(port: site.port, "/v1/feeds/shop-ada/layouts/390/visible?rect=0,0,390,844").hasPrefix("HTTP/1.1 200"))
        #expect(!site.stderr.contains("still serving the store open before"), "\(site.stderr)")
        #expect(site.stop() == 0)
    }
}
