import Foundation
import TesseraStore
import Testing
import TesseraTestSupport
import TesseraLayout
import TesseraSQLite
@testable import tessera

/// The README's examples, run: its command lines against the built binary,
/// its Swift against the libraries; and the JSON excerpts of the DocC
/// article on specs and layout kinds (moved there from the README) against
/// Examples/.
@Suite("README examples")
struct ReadmeTests {
    static let readme = document("README.md")
    /// The article that holds each layout kind's JSON excerpt.
    static let kindsArticle = document("Sources/TesseraLayout/TesseraLayout.docc/SpecsAndKinds.md")

    /// A text file of the repository, empty when it cannot be read (the tests then fail on its missing blocks).
    static func document(_ path: String) -> String {
        (try? String(contentsOf: CLIRunner.repository.appendingPathComponent(path), encoding: .utf8)) ?? ""
    }

    /// The lines of a document's fenced code blocks of one language (the README's by default).
    static func codeBlocks(_ language: String, in text: String = readme) -> [[String]] {
        fencedBlocks(language, in: text)
    }

    /// The text of the README from the heading `from` to the next heading of the same level.
    static func section(_ from: String, in text: String = readme) -> String {
        guard let start = text.range(of: "\n" + from + "\n") else { return "" }
        let level = String(from.prefix(while: { $0 == "#" }))
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n" + level + " ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test("every command block of the tour and the server section runs as written, in a fresh folder")
    func commandBlocks() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        try files.createSymbolicLink(
            at: directory.appendingPathComponent("Examples"), withDestinationURL: CLIRunner.repository.appendingPathComponent("Examples")
        )
        // `swift build` is the build these tests run in: its products stand in `.build/release` and on PATH.
        let products = CLIRunner.executable.deletingLastPathComponent()
        try files.createDirectory(at: directory.appendingPathComponent(".build"), withIntermediateDirectories: true)
        try files.createSymbolicLink(at: directory.appendingPathComponent(".build/release"), withDestinationURL: products)

        let tour = Self.section("## A five-minute tour")
        let blocks = (Self.codeBlocks("sh", in: tour) + Self.codeBlocks("bash", in: tour)).map { $0.joined(separator: "\n") }
        #expect(blocks.count >= 2 && tour.contains("### The server"))
        let port = try freeLoopbackPort()
        // The only changes to what the README says: no `swift build` (done), a small demo
        // (a million items take half a minute in a debug build), and a free port for 8080.
        let rewrites: [(String, String)] = [
            ("swift build -c release --product tessera-server", ":"),
            ("tessera demo ", "tessera demo --items 2000 "),
            ("8080", String(port)),
        ]
        var script = "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\ntrap 'exit 143' TERM INT\n" + blocks.joined(separator: "\n")
        for (text, replacement) in rewrites {
            #expect(script.contains(text), "the README no longer says \(text)")
            script = script.replacingOccurrences(of: text, with: replacement)
        }
        let path = try CLIRunner.file("readme.sh", in: directory, script)
        let output = try CLIRunner.run(
            ["150", "/usr/bin/env", "PATH=\(products.path):/usr/bin:/bin", "bash", "-euo", "pipefail", path],
            in: directory, executable: "/usr/bin/timeout", seconds: 180
        )
        #expect(output.status == 0, "the README's commands failed (exit \(output.status)): \(output.stderr.suffix(2000))")
        #expect(output.stdout.contains("\"elements\""), "/visible answered: \(output.stdout.suffix(500))")

        // Every file a command names exists afterwards: its inputs, and what it wrote.
        let named = blocks.joined(separator: " ").split(whereSeparator: { $0 == " " || $0 == "\n" }).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\"@\\"))
        }.filter { word in
            !word.contains(":") && [".json", ".ndjson", ".sqlite", ".svg", ".txt", ".tessera"].contains { word.hasSuffix($0) }
        }
        #expect(named.count >= 15)
        for file in Set(named) {
            #expect(files.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file) is named by the README but does not exist")
        }

        // Every `tessera` command has a line in the tour (`bench` moved to `tessera-bench`).
        let used = Set(blocks.joined(separator: "\n").split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return words.first == "tessera" && words.count > 1 ? String(words[1]) : nil
        })
        let commands = Tessera.configuration.subcommands.compactMap { $0.configuration.commandName }.filter { $0 != "bench" }
        #expect(used == Set(commands), "every command has a line in the README")
    }

    @Test("every layout excerpt of the kinds article is the layout of a section in Examples/")
    func jsonExcerpts() async throws {
        var examples: [JSONValue] = []
        let folder = CLIRunner.repository.appendingPathComponent("Examples")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".json") {
            let json = try JSONParser.parse(String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8))
            guard case .object(let spec) = json, case .array(let sections)? = spec["sections"] else { continue }
            for case .object(let section) in sections {
                if let layout = section["layout"] { examples.append(layout) }
            }
        }
        let blocks = Self.codeBlocks("json", in: Self.kindsArticle)
        #expect(blocks.count >= 7)
        for block in blocks {
            let text = block.joined(separator: "\n")
            let layout = try #require(Self.object(after: "\"layout\": ", in: text), "\(text)")
            #expect(examples.contains(try JSONParser.parse(layout)), "\(layout)")
        }
    }

    /// The balanced `{...}` that follows `marker` in `text`.
    static func object(after marker: String, in text: String) -> String? {
        guard let start = text.range(of: marker)?.upperBound, text[start...].first == "{" else { return nil }
        var depth = 0
        var index = start
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return String(text[start...index]) }
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    @Test("the Swift excerpts compile and do what the README says")
    func swiftExcerpts() async throws {
        let path = CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path
        // The library: TesseraLayout.
        let spec = try Spec(contentsOfFile: path)
        let layout = try LayoutEngine().layout(spec, crossExtent: 390)
        #expect(layout.contentSize.height == 2810.1794871794873)
        let viewport = Rect(x: 0, y: 600, width: 390, height: 844)
        #expect(!layout.visibleElements(viewport: viewport).isEmpty)
        #expect(layout.element(section: 2, item: 7) != nil)

        let photos = Spec(name: "photos", sections: [
            Section(
                layout: StaggeredLayout(columns: 3, itemSpacing: 4, lineSpacing: 4),
                header: Supplementary(size: 44, pinned: true),
                items: .cycle(count: 100_000, [Item(aspectRatio: 0.75), Item(aspectRatio: 1.5)])
            ),
        ])
        #expect(try LayoutEngine().layout(photos, crossExtent: 390).summary.cellCount == 100_000)

        // TesseraStore.
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LayoutStore(path: directory.appendingPathComponent("feed.sqlite").path)
        try await store.save(spec, as: "home", crossExtents: [390, 430, 820])
        let visible = try await store.visibleElements(name: "home", crossExtent: 390, viewport: viewport)
        #expect(visible == layout.visibleElements(viewport: viewport))
        let hits = try await store.elements(name: "home", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 300))
        #expect(hits == layout.elements(in: Rect(x: 0, y: 0, width: 390, height: 300)))
        let item = try await store.element(name: "home", crossExtent: 430, section: 2, item: 7)
        #expect(item == (try LayoutEngine().layout(spec, crossExtent: 430)).element(section: 2, item: 7))
        let appendReport = try await store.append(name: "home", section: 2, items: [Item(aspectRatio: 0.75)])
        #expect(appendReport.layouts.map(\.resumed) == [1, 1, 1])
        let updateReport = try await store.update(name: "home", with: spec)
        #expect(updateReport.layouts.map(\.recomputed) == [1, 1, 1])
        #expect(try await store.elements(name: "home", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 1e6))
            == layout.elements(in: Rect(x: 0, y: 0, width: 390, height: 1e6)))
        #expect(try await store.invalidate(name: "home") == 3)
        #expect(try await store.prune().layoutsDeleted == 3)

        // Embedding in a server (SharingAStore.md of the TesseraSQLite catalog).
        let service = try FeedService(path: directory.appendingPathComponent("server.sqlite").path)
        try await service.store.save(spec, as: "home", crossExtents: [390])
        let json = try await service.visible(feed: "home", width: 390, y: 12, height: 844)
        guard case .array(let elements) = try JSONParser.parse(json) else {
            Issue.record("not a JSON array: \(json)")
            return
        }
        #expect(elements.count == layout.visibleElements(viewport: Rect(x: 0, y: 12, width: 390, height: 844)).count)
    }

    @Test("the async excerpt answers like the sync one")
    func asyncExcerpt() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try LayoutStore(path: directory.appendingPathComponent("async.sqlite").path)
        let spec = try Spec(contentsOfFile: CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path)
        try await store.save(spec, as: "home", crossExtents: [390])
        let elements = try await visible(store: store, feed: "home", width: 390, y: 600, height: 844)
        #expect(elements == (try LayoutEngine().layout(spec, crossExtent: 390)).visibleElements(viewport: Rect(x: 0, y: 600, width: 390, height: 844)))
    }
}

/// The README's async example, as written there.
func visible(store: LayoutStore, feed: String, width: Double, y: Double, height: Double) async throws -> [LayoutElement] {
    try await store.visibleElements(name: feed, crossExtent: width,
                                    viewport: Rect(x: 0, y: y, width: width, height: height))
}

/// The server example of the SQLite backend's article on sharing a store
/// (Sources/TesseraSQLite/TesseraSQLite.docc/SharingAStore.md), as written there.
struct FeedService: Sendable {
    let store: LayoutStore

    init(path: String) throws {
        store = try LayoutStore(path: path, maximumReaders: 8)
    }

    /// GET /feeds/{name}/layout?width=390&y=12000&height=844
    func visible(feed: String, width: Double, y: Double, height: Double) async throws -> String {
        let viewport = Rect(x: 0, y: y, width: width, height: height)
        let elements = try await store.visibleElements(name: feed, crossExtent: width, viewport: viewport)
        return "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
    }
}
