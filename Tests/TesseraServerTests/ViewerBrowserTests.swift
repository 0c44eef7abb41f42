import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The viewer page (`Clients/Viewer`) in a real browser: Debian's Chromium
/// driven by Playwright (`Scripts/viewer-check.py`), against `tessera-server
/// --viewer` over the 1M-item demo feed, and against a static export of it
/// served by nginx.
@Suite("viewer: in a real browser", .timeLimit(.minutes(10)))
struct ViewerBrowserTests {
    @Test("served by tessera-server --viewer: scrolls 1M items to the end and back, keys, wheel, jump, widths (stored and new), a carousel, screenshots as render draws them")
    func served() async throws {
        let demo = try await DemoFeedStore.shared.folder()
        let browser = try await BrowserTools.installed()
        let server = try ServerProcessTests.Running(["--db", demo.store, "--viewer", "--log-level", "warning"])
        defer { _ = server.stop() }
        let result = try await BrowserTools.check([
            "server", "--url", "http://127.0.0.1:\(server.port)/viewer/", "--cli", Executable.url("tessera").path, "--db", demo.store,
            "--name", "demo-feed", "--width", "390", "--other-width", "430", "--chromium", browser.chromium,
            "--last", demo.lastCell, "--jump", "26/500000", "--carousel", "carousel-feed/1",
        ], python: browser.python)
        BrowserTools.expectPassed(result, checks: 12)
    }

    @Test("written by export --tiles and served by nginx: lists what the export holds and shows the feed")
    func exported() async throws {
        // The demo feed at 5,000 items: all its kinds, in a few hundred tiles (the 1M-item feed's would be hundreds of megabytes).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-viewer-export-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tessera = Executable.url("tessera").path
        let demo = try await SessionRun.run([tessera, "demo", "--out-dir", folder, "--items", "5000"], seconds: 120)
        #expect(demo.status == 0 && !demo.timedOut, "\(demo.output)")
        let store = folder + "/tessera-demo.sqlite"
        let site = folder + "/site"
        let export = try await SessionRun.run([tessera, "export", "--db", store, "--name", "demo-feed", "--width", "390", "--tiles", site], seconds: 120)
        #expect(export.status == 0 && !export.timedOut, "\(export.output)")
        let browser = try await BrowserTools.installed()
        let nginx = try NginxServer(root: site, in: URL(fileURLWithPath: folder + "/nginx"), serving: .viewer)
        defer { nginx.stop() }
        let result = try await BrowserTools.check([
            "export", "--url", "http://127.0.0.1:\(nginx.port)/", "--cli", tessera, "--db", store,
            "--name", "demo-feed", "--width", "390", "--chromium", browser.chromium,
        ], python: browser.python)
        BrowserTools.expectPassed(result, checks: 5)
    }
}

/// `tessera demo` once per test process (about a million items at widths
/// 390, 430 and 820), with Examples/carousel-feed.json added beside it.
actor DemoFeedStore {
    static let shared = DemoFeedStore()

    struct Demo: Sendable {
        let folder: String
        let store: String
        /// "SECTION/ITEM" of the feed's last cell.
        let lastCell: String
    }

    private var making: Task<Demo, any Error>?

    func folder() async throws -> Demo {
        if let making { return try await making.value }
        let task = Task { try await Self.make() }
        making = task
        return try await task.value
    }

    private static func make() async throws -> Demo {
        let temporary = FileManager.default.temporaryDirectory.path
        // No test outlives its process to remove the store: the next run removes those of processes gone.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? [] where entry.hasPrefix("tessera-viewer-demo-") {
            if let pid = Int32(entry.dropFirst("tessera-viewer-demo-".count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + "/" + entry)
            }
        }
        let folder = temporary + "/tessera-viewer-demo-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let tessera = Executable.url("tessera").path
        let demo = try await SessionRun.run([tessera, "demo", "--out-dir", folder], seconds: 600)
        guard demo.status == 0, !demo.timedOut else { throw BrowserTools.Failure(description: "tessera demo failed: \(demo.output)") }
        let store = folder + "/tessera-demo.sqlite"
        let carousel = try await SessionRun.run(
            [tessera, "precompute", ServerFixture.repository + "/Examples/carousel-feed.json", "--db", store, "--width", "390", "--quiet"], seconds: 60)
        guard carousel.status == 0 else { throw BrowserTools.Failure(description: "precompute failed: \(carousel.output)") }
        // The demo's last section is a flow of 2,380 items (1,000,000 in all).
        return Demo(folder: folder, store: store, lastCell: "49/2379")
    }
}
