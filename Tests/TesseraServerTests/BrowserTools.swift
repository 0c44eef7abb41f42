import Foundation
import Testing

/// The real browser the web tests drive (Chromium through Playwright), and the viewer's checks.
enum BrowserTools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Python with Playwright and Chromium, installed by `Scripts/browser.sh install` when missing.
    static func installed() async throws -> (python: String, chromium: String) {
        let install = try await SessionRun.run(["/bin/bash", "Scripts/browser.sh", "install"], seconds: 1200)
        guard install.status == 0, !install.timedOut else {
            throw Failure(description: "bash Scripts/browser.sh install failed (a real browser is needed, never skipped): \(install.output)")
        }
        let python = try await SessionRun.run(["/bin/bash", "Scripts/browser.sh", "python"], seconds: 30)
        let chromium = try await SessionRun.run(["/bin/bash", "Scripts/browser.sh", "chromium"], seconds: 30)
        guard python.status == 0, chromium.status == 0 else { throw Failure(description: "no browser after installing: \(python.output) \(chromium.output)") }
        return (python.output.trimmingCharacters(in: .whitespacesAndNewlines), chromium.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `Scripts/viewer-check.py` with `arguments`, killed after 150 s.
    static func check(_ arguments: [String], python: String) async throws -> SessionRun {
        try await SessionRun.run([python, "Scripts/viewer-check.py"] + arguments, seconds: 150)
    }

    /// Every check of the script's report passed, and there were `checks` of them.
    static func expectPassed(_ result: SessionRun, checks: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!result.timedOut, "viewer-check.py ran past its time and was killed:\n\(result.output)", sourceLocation: sourceLocation)
        let start = result.output.firstIndex(of: "{").map { result.output[$0...] } ?? ""
        let report = (try? JSONSerialization.jsonObject(with: Data(start.utf8))) as? [String: Any]
        let results = report?["checks"] as? [[String: Any]] ?? []
        #expect(results.count == checks, "expected \(checks) checks:\n\(result.output)", sourceLocation: sourceLocation)
        for check in results where check["ok"] as? Bool != true {
            Issue.record("\(check["name"] ?? "?"): \(check["detail"] ?? "")", sourceLocation: sourceLocation)
        }
        #expect(result.status == 0, "\(result.output)", sourceLocation: sourceLocation)
    }
}
