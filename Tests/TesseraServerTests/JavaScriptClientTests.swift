import Foundation
import Testing

/// The JavaScript tile client (`Clients/JavaScript`): its own tests, run by
/// Node against the `tessera` and `tessera-server` built with these tests.
@Suite("The JavaScript tile client, tested by node against the built server")
struct JavaScriptClientTests {
    @Test("node --test Clients/JavaScript/test/ passes, with no test skipped")
    func nodeTests() async throws {
        guard let node = Self.node() else {
            Issue.record("node is not on PATH: the JavaScript client's tests need Node 18 or later (apt-get install nodejs)")
            return
        }
        let run = try await SessionRun.run([node.path, "--test", "Clients/JavaScript/test/"], environment: [
            "TESSERA_SERVER": Executable.url("tessera-server").path, "TESSERA_CLI": Executable.url("tessera").path,
        ], seconds: 300)
        let text = run.output
        #expect(!run.timedOut, "node --test ran past 300 s and was killed:\n\(text)")
        #expect(run.status == 0, "\(text)")
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
