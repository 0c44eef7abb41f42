import Foundation
import Testing

/// The JavaScript tile client in Chromium, driven by Playwright
/// (`Clients/JavaScript/browser/browser-test.py`): pages of two origins
/// served by a real nginx, the built `tessera-server` with and without
/// `--cors-origin`, and a static export.
@Suite("The JavaScript tile client in a real browser")
struct BrowserClientTests {
    @Test("in Chromium, visible() equals /visible for 600 random viewports (server, after an append, static export); CORS lets the allowed origins read and the browser refuses the others")
    func browser() async throws {
        let (python, chromium) = try await BrowserTools.installed()

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-browser-\(UUID().uuidString)")
        let site = directory.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxServer(root: site.path, in: directory.appendingPathComponent("nginx"), portCount: 2)
        defer { nginx.stop() }

        let run = try await SessionRun.run([
            python, "Clients/JavaScript/browser/browser-test.py", "--site", site.path, "--ports", nginx.ports.map(String.init).joined(separator: ","),
            "--chromium", chromium, "--timeout", "110",
        ], environment: ["TESSERA_SERVER": Executable.url("tessera-server").path, "TESSERA_CLI": Executable.url("tessera").path], seconds: 150)
        try #require(!run.timedOut && run.status == 0, "browser-test.py failed (timed out: \(run.timedOut)):\n\(run.output)")
        let last = run.output.split(separator: "\n").last.map(String.init) ?? ""
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], "\(run.output)")
        func count(_ key: String) -> Int { summary[key] as? Int ?? -1 }
        #expect(count("compared") == 600, "\(summary)")
        #expect(count("afterAppend") == 150 && count("export") == 100, "\(summary)")
        // The random viewports reach what is hard to get right.
        for key in ["orthogonal", "pinned", "horizontal", "rtl", "offsets"] {
            #expect(count(key) > 60, "only \(count(key)) viewports with \(key): \(summary)")
        }
        let reads = summary["crossOrigin"] as? [String: String] ?? [:]
        #expect(reads["anyOrigin"] == "read", "\(reads)")
        for key in ["notListed", "noFlag", "noFlagFirstOrigin"] {
            #expect(reads[key]?.contains("Failed to fetch") == true, "\(key): \(reads)")
        }
    }
}
