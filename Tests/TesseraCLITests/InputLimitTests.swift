import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

/// Spec files and files of specs are read under the rules of items files:
/// regular files only (`-` reads standard input), a size or line limit,
/// refusal before the bytes are held. Every command runs with its memory
/// capped and a time limit, so that an unbounded read fails the test.
@Suite("tessera: spec files and files of specs are read under limits")
struct InputLimitTests {
    static let limit = Spec.maximumFileBytes

    /// A sparse file of `size` bytes (zeros) at `name` in `directory`.
    static func sparseFile(_ name: String, in directory: URL, size: Int) throws -> String {
        let path = directory.appendingPathComponent(name).path
        let descriptor = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        try #require(ftruncate(descriptor, off_t(size)) == 0)
        return path
    }

    /// A device, a new FIFO in `directory`, and `directory` itself, each
    /// with its kind in words.
    static func unreadable(in directory: URL) throws -> [(path: String, kind: String)] {
        let fifo = directory.appendingPathComponent("input.fifo").path
        try #require(mkfifo(fifo, 0o644) == 0)
        return [("/dev/zero", "a device"), (fifo, "a FIFO"), (directory.path, "a directory")]
    }

    @Test("a device or a FIFO as a spec file is refused at once, naming it, for every command that reads one")
    func specFileKinds() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feeds.sqlite").path
            for (path, kind) in try Self.unreadable(in: directory) {
                let reason = "'\(path)' is \(kind); spec files must be regular files (- reads standard input)"
                for arguments in [
                    ["layout", path, "--width", "390"],
                    ["precompute", path, "--db", database, "--width", "390"],
                    ["query", "--spec", path, "--width", "390", "--rect", "0,0,10,10"],
                    ["render", path, "--width", "390", "--out", directory.appendingPathComponent("out.svg").path],
                ] {
                    let line = try CLIRunner.boundedFailure(arguments, memoryMiB: 1024, seconds: 20)
                    #expect(line == "error: \(path): \(reason)", "\(arguments)")
                }
            }
            #expect(!FileManager.default.fileExists(atPath: database))
        }
    }

    @Test("a spec file larger than the limit is refused by its size before it is read")
    func specFileSize() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let large = try Self.sparseFile("large.json", in: directory, size: Self.limit + 1)
            let reason = "'\(large)' holds \(Self.limit + 1) bytes; spec files may hold at most \(Self.limit) bytes (64 MiB)"
            let layout = try CLIRunner.boundedFailure(["layout", large, "--width", "390"], memoryMiB: 1024, seconds: 20)
            #expect(layout == "error: \(large): \(reason)")
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let precompute = try CLIRunner.boundedFailure(["precompute", large, "--db", database, "--width", "390"], memoryMiB: 1024, seconds: 20)
            #expect(precompute == "error: \(large): \(reason)")
            #expect(!FileManager.default.fileExists(atPath: database))
        }
    }

    @Test("- reads a spec from standard input, as the file would be read; an endless one stops at the limit")
    func specFromStandardInput() async throws {
        let flow = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
        let fromFile = try CLIRunner.run(["layout", flow, "--width", "390", "--format", "json"])
        let fromInput = try CLIRunner.runBounded(["layout", "-", "--width", "390", "--format", "json"], input: flow)
        #expect(fromFile.status == 0 && fromInput.status == 0, "\(fromInput.stderr)")
        #expect(fromInput.stdout == fromFile.stdout)
        let endless = try CLIRunner.boundedFailure(["layout", "-", "--width", "390"], input: "/dev/zero", memoryMiB: 1024, seconds: 30)
        #expect(endless == "error: -: standard input holds more than \(Self.limit) bytes; spec files may hold at most \(Self.limit) bytes (64 MiB)")
    }

    @Test("--specs from a device, a FIFO or a folder is refused at once, naming it, and leaves no store")
    func specLinesKinds() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feeds.sqlite").path
            for (path, kind) in try Self.unreadable(in: directory) {
                let line = try CLIRunner.boundedFailure(["precompute", "--specs", path, "--db", database, "--width", "390"], memoryMiB: 1024, seconds: 20)
                #expect(line == "error: '\(path)' is \(kind); files of specs must be regular files (- reads standard input)")
            }
            #expect(!FileManager.default.fileExists(atPath: database))
        }
    }

    @Test("--specs - reads standard input line by line; an endless line is refused at the limit, leaving no store")
    func specLinesFromStandardInput() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feeds.sqlite").path
            let feeds = CLIRunner.repository.appendingPathComponent("Examples/shop-feeds.ndjson").path
            let stored = try CLIRunner.runBounded(["precompute", "--specs", "-", "--db", database, "--width", "390", "--quiet"], input: feeds)
            #expect(stored.status == 0 && stored.stderr.isEmpty, "\(stored.stderr)")
            #expect(try await !LayoutStore(path: database).specs().isEmpty)

            let fresh = directory.appendingPathComponent("fresh.sqlite").path
            let endless = try CLIRunner.boundedFailure(
                ["precompute", "--specs", "-", "--db", fresh, "--width", "390", "--quiet"], input: "/dev/zero", memoryMiB: 1024, seconds: 30
            )
            #expect(endless == "error: -:1: the line is longer than \(Self.limit) bytes (64 MiB), the longest spec a file of specs may hold")
            #expect(!FileManager.default.fileExists(atPath: fresh))
        }
    }
}
