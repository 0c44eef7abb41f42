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

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], seconds: Double) throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-session-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let file = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: ServerFixture.repository)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = file
        process.standardError = file
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        timedOut = process.isRunning
        if timedOut { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try file.close()
        status = process.terminationStatus
        output = String(decoding: try Data(contentsOf: log), as: UTF8.self)
    }
}
