import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end in a session of its own (`setsid --wait`), so
/// that what it started goes with it when it is killed past its time limit;
/// its output goes to a file, which no leftover can hold open.
struct SessionRun {
    var status: Int32
    var output: String
    var timedOut: Bool

    /// Runs `command` (a program and its arguments) from the repository's
    /// top folder; past `seconds` its whole session is killed.
    static func run(_ command: [String], environment: [String: String] = [:], seconds: Double) async throws -> SessionRun {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-session-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let file = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait"] + command
        process.currentDirectoryURL = URL(fileURLWithPath: ServerFixture.repository)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = file
        process.standardError = file
        try process.run()
        // Polled with Task.sleep: no thread of Swift concurrency's few waits on the child.
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        let timedOut = process.isRunning
        if timedOut { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try file.close()
        return SessionRun(status: process.terminationStatus, output: String(decoding: try Data(contentsOf: log), as: UTF8.self), timedOut: timedOut)
    }
}
