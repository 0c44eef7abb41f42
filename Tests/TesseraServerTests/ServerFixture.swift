import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import TesseraHummingbird
import TesseraLayout
import TesseraSQLite
import TesseraServerSupport
import TesseraStore
@testable import tessera_server

/// A store with one feed in a temporary folder, and the server's
/// application over it (the same router `tessera-server` runs).
final class ServerFixture: Sendable {
    let directory: URL
    let path: String
    let store: LayoutStore
    let registry = PrometheusCollectorRegistry()

    /// Pinned headers and footers, two kinds, 3 sections.
    static let feed = #"""
    {"format": 1, "sections": [
      {"header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
       "items": {"count": 300, "cycle": [{}]}},
      {"header": {"size": 30, "pinned": true}, "footer": {"size": 20, "pinned": true},
       "layout": {"kind": "mosaic", "columns": 3}, "items": {"count": 120, "cycle": [{"aspectRatio": 1.5}, {"aspectRatio": 0.75}, {}]}},
      {"layout": {"kind": "flow", "itemSize": [120, 80]}, "items": {"count": 50, "cycle": [{}]}}
    ]}
    """#

    init(extents: [Double] = [390], registry: LayoutRegistry = .standard) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("feeds.sqlite").path
        store = try LayoutStore(path: path, registry: registry)
        try await store.save(try Spec(jsonText: Self.feed), as: "feed", crossExtents: extents)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A file in the fixture's folder.
    func file(_ name: String, _ text: String) throws -> String {
        let file = directory.appendingPathComponent(name).path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The metrics `/metrics` shows, as text.
    var metricsText: String {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The server's application over the store (the viewer at `/viewer/` with `viewer`).
    func application(_ configuration: TesseraServiceConfiguration = .init(), viewer: Bool = false) -> some ApplicationProtocol {
        var logger = Logger(label: "tessera-server-tests")
        logger.logLevel = .warning
        return Application(
            router: ServerRouter.make(store: store, configuration: configuration, registry: registry, viewer: viewer),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            logger: logger
        )
    }

    /// The repository's top folder, for Examples/.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Writes allowed with the token `secret`.
    static let writable = TesseraServiceConfiguration(writeAccess: .bearerToken("secret"))
    static let authorized: HTTPFields = [.authorization: "Bearer secret"]
}

extension TestResponse {
    /// The body as text.
    var text: String { String(buffer: body) }

    /// The problem object of an error answer.
    var problem: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }
}

/// The package's built executables, run as a user would.
enum Executable {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `name` in the build folder that holds this test binary.
    static func url(_ name: String) -> URL {
        var folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }

    /// Runs `name` to its end; its output is small.
    static func run(_ name: String, _ arguments: [String]) throws -> Output {
        let process = Process()
        process.executableURL = url(name)
        process.arguments = arguments
        let (out, err) = (Pipe(), Pipe())
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
