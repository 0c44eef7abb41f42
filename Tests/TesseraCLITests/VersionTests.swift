import Foundation
import Testing

@Suite("--version: both executables print the package version")
struct VersionTests {
    @Test("tessera --version and tessera-server --version print the same version, MAJOR.MINOR.PATCH, and exit 0")
    func version() async throws {
        let tessera = try CLIRunner.run(["--version"])
        let server = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("tessera-server").path
        try #require(FileManager.default.isExecutableFile(atPath: server), "no tessera-server beside \(CLIRunner.executable.path)")
        let served = try CLIRunner.run(["--version"], executable: server)
        #expect(tessera.status == 0 && tessera.stderr.isEmpty, "\(tessera.stderr)")
        #expect(tessera.stdout.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil, "\(tessera.stdout)")
        #expect(served.status == 0 && served.stderr.isEmpty, "\(served.stderr)")
        #expect(served.stdout == tessera.stdout)
    }
}
