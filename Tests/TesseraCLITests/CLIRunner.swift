import Foundation
import Locking
import Testing

/// Runs the built `tessera` binary as a user would.
struct CLIRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The process ended by a signal (then ``status`` is the signal's number).
        var signaled = false
    }

    /// The `tessera` binary next to this test bundle in the build folder.
    static let executable: URL = {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // The test binary may sit inside a .xctest bundle folder.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("tessera").path),
              directory.path != "/" {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("tessera")
    }()

    /// The repository's top folder, for Examples/.
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `tessera` (or another `executable`) with `arguments`. A child
    /// still running after `seconds` is killed; pipes still open then (held
    /// by a process it started, or one that inherited them) fail the run
    /// with ``Unfinished`` instead of blocking the test run for good.
    static func run(_ arguments: [String], in directory: URL? = nil, executable path: String? = nil, seconds: Double = 600) throws -> Output {
        let process = Process()
        process.executableURL = path.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let (stdoutData, stderrData) = try readToEnd(out, err, of: process, seconds: seconds)
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            signaled: process.terminationReason == .uncaughtSignal
        )
    }

    /// A child whose output did not end in time.
    struct Unfinished: Error, CustomStringConvertible {
        var description: String
    }

    /// Both pipes read to their end while `process` runs (so a large output
    /// cannot block it), once it has exited; see ``readToEnd(_:of:seconds:)``.
    static func readToEnd(_ out: Pipe, _ err: Pipe, of process: Process, seconds: Double = 600) throws -> (stdout: Data, stderr: Data) {
        let read = try readToEnd([out, err].map { pipe in { pipe.fileHandleForReading.readDataToEndOfFile() } }, of: process, seconds: seconds)
        return (read[0], read[1])
    }

    /// What each of `sources` reads to its end, each on a thread of its own
    /// while `process` runs, once it has exited. A process still running
    /// `seconds` after the call, its output ended or not, is killed; when a
    /// source still has not ended 10 s later, throws ``Unfinished`` (the
    /// threads stay blocked until they end).
    static func readToEnd(_ sources: [@Sendable () -> Data], of process: Process, seconds: Double) throws -> [Data] {
        let deadline = DispatchTime.now() + seconds
        let group = DispatchGroup()
        let read = Locked([Data](repeating: Data(), count: sources.count))
        for (index, source) in sources.enumerated() {
            group.enter()
            DispatchQueue.global().async {
                let data = source()
                read.withLock { $0[index] = data }
                group.leave()
            }
        }
        if group.wait(timeout: deadline) == .timedOut {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            guard group.wait(timeout: .now() + 10) == .success else {
                let name = process.executableURL?.lastPathComponent ?? "the child"
                throw Unfinished(description: "\(name) \(process.arguments ?? []): its output had not ended after \(seconds) s, nor 10 s after it was killed")
            }
        }
        // Its output ended; a process that closed its streams may still run.
        while process.isRunning, DispatchTime.now() < deadline { usleep(1_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return read.withLock { $0 }
    }

    /// Which stream `runOnTerminal` connects to a pseudo-terminal.
    enum TerminalStream {
        case stdout, stderr
    }

    /// Runs the binary (or another `executable`) with one stream on a
    /// pseudo-terminal, so that it behaves as for a person (tables,
    /// progress bars); the other stream is a pipe. The terminal's "\r\n"
    /// line ends are read back as "\n". Bounded as ``run(_:in:executable:seconds:)`` is.
    static func runOnTerminal(_ arguments: [String], terminal stream: TerminalStream, executable path: String? = nil, seconds: Double = 600) throws -> Output {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw CocoaError(.fileReadUnknown) }
        // Left open when a read of it may still be blocked (``Unfinished``):
        // its number, reused, would be read from by that thread.
        var reading = true
        defer { if !reading { close(master) } }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let process = Process()
        process.executableURL = path.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = stream == .stdout ? terminal : pipe
        process.standardError = stream == .stderr ? terminal : pipe
        do {
            try process.run()
        } catch {
            close(slave)
            reading = false
            throw error
        }
        // Only the child holds the terminal now, so reading ends (EIO) when it exits.
        close(slave)
        let source = master
        let read = try readToEnd([
            {
                var data = Data()
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = Foundation.read(source, &buffer, buffer.count)
                    if count <= 0 { return data }
                    data.append(contentsOf: buffer[0..<count])
                }
            },
            { pipe.fileHandleForReading.readDataToEndOfFile() },
        ], of: process, seconds: seconds)
        reading = false
        let shown = String(decoding: read[0], as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
        let piped = String(decoding: read[1], as: UTF8.self)
        return Output(
            status: process.terminationStatus, stdout: stream == .stdout ? shown : piped, stderr: stream == .stderr ? shown : piped,
            signaled: process.terminationReason == .uncaughtSignal
        )
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to the file `name` in `directory`; returns its path.
    static func file(_ name: String, in directory: URL, _ text: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `body` in a fresh temporary folder, removed afterwards.
    static func inTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    /// Runs a command that must fail as the README promises: a non-zero
    /// exit, nothing on standard output and exactly one line on standard
    /// error. Returns that line.
    @discardableResult
    static func failure(_ arguments: [String], in directory: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let output = try run(arguments, in: directory)
        #expect(output.status != 0, "\(arguments) exited 0", sourceLocation: sourceLocation)
        #expect(output.stdout.isEmpty, "\(arguments) printed: \(output.stdout)", sourceLocation: sourceLocation)
        let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && !lines[0].isEmpty && lines[1].isEmpty, "\(arguments): not one line on stderr: \(output.stderr)", sourceLocation: sourceLocation)
        return lines.first.map(String.init) ?? ""
    }
}
