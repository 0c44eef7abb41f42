import Foundation
import TesseraStore
import Testing
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
        var blocks: [[String]] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test("every tessera command line of the tour runs, in order, from a copy of the repository's top folder")
    func commandLines() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(
            at: directory.appendingPathComponent("Examples"),
            withDestinationURL: CLIRunner.repository.appendingPathComponent("Examples")
        )
        let lines = Self.codeBlocks("sh").flatMap { $0 }.filter { $0.hasPrefix("tessera ") }
        #expect(lines.count >= 12)
        var kinds: Set<String> = []
        for line in lines {
            let command = line.split(separator: "#")[0].trimmingCharacters(in: .whitespaces)
            var arguments = command.split(separator: " ").map(String.init).dropFirst().map { $0 }
            kinds.insert(arguments[0])
            // The demo's million items are for release builds: a small feed here, in this folder.
            if arguments[0] == "demo" {
                arguments = ["demo", "--items", "2000", "--out-dir", directory.path]
            }
            let output = try CLIRunner.run(arguments, in: directory)
            #expect(output.status == 0, "\(line): \(output.stderr)")
            #expect(!output.stdout.isEmpty || arguments[0] == "render", "\(line) printed nothing")
        }
        // `bench` is leaving `tessera` for the `tessera-bench` executable: the README lists it nowhere as a `tessera` line.
        let commands = Tessera.configuration.subcommands.compactMap { $0.configuration.commandName }.filter { $0 != "bench" }
        #expect(kinds == Set(commands), "every command has a line in the README")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("waterfall.svg").path))
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("home.svg").path))
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
        let json = try service.visible(feed: "home", width: 390, y: 12, height: 844)
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
    func visible(feed: String, width: Double, y: Double, height: Double) throws -> String {
        let viewport = Rect(x: 0, y: y, width: width, height: height)
        let elements = try store.visibleElements(name: feed, crossExtent: width, viewport: viewport)
        return "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
    }
}
