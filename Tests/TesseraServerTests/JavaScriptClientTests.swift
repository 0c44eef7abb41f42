import Foundation
import Testing

/// The JavaScript tile client (`Clients/JavaScript`): its own tests, run by
/// Node against the `tessera` and `tessera-server` built with these tests.
@Suite("The JavaScript tile client, tested by node against the built server")
struct JavaScriptClientTests {
    @Test("node --test Clients/JavaScript/test/ passes, with no test skipped")
    func nodeTests() throws {
        guard let node = Self.node() else {
            Issue.record("node is not on PATH: the JavaScript client's tests need Node 18 or later (apt-get install nodejs)")
            return
        }
        // In a session of its own (setsid), so that the servers it started go with it when it is
        // killed past its time limit; its output goes to a file, which no leftover can hold open.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-js-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
        process.arguments = ["--wait", node.path, "--test", "Clients/JavaScript/test/"]
        process.currentDirectoryURL = URL(fileURLWithPath: ServerFixture.repository)
        var environment = ProcessInfo.processInfo.environment
        environment["TESSERA_SERVER"] = Executable.url("tessera-server").path
        environment["TESSERA_CLI"] = Executable.url("tessera").path
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        let timedOut = process.isRunning
        if timedOut { kill(-process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try output.close()
        let text = String(decoding: try Data(contentsOf: log), as: UTF8.self)
        #expect(!timedOut, "node --test ran past 300 s and was killed:\n\(text)")
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("# fail 0") && text.contains("# skipped 0") && !text.contains("# pass 0"), "\(text)")
    }

    /// `node` (or Debian's `nodejs`) from PATH.
    static func node() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["node", "nodejs"] {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }
}
