import Foundation
import Testing
import TesseraLayout
import TesseraSQLite

@Suite("--format: list's json and ndjson fields, tables for people")
struct OutputFormatTests {
    static let homeFeed = CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path
    static let flow = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path

    /// A store with home-feed at 390 (fresh) and 820 (stale), and flow-tags with no layouts left.
    private func makeStore(in directory: URL) throws -> String {
        let database = directory.appendingPathComponent("feed.sqlite").path
        #expect(try CLIRunner.run(["precompute", Self.homeFeed, "--db", database, "--width", "390", "--width", "820", "--quiet"]).status == 0)
        #expect(try CLIRunner.run(["precompute", Self.flow, "--db", database, "--width", "390", "--quiet"]).status == 0)
        #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "flow-tags"]).status == 0)
        #expect(try CLIRunner.run(["prune", "--db", database]).status == 0)
        #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "home-feed", "--width", "820"]).status == 0)
        return database
    }

    @Test("list json: every layout's width, state, element count, content size and bytes, as the library computes them")
    func listJSON() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try makeStore(in: directory)
            let output = try CLIRunner.run(["list", "--db", database, "--format", "json"])
            #expect(output.status == 0, "\(output.stderr)")
            let listing = try DecodedOutput.decode(DecodedOutput.Listing.self, from: output.stdout)
            #expect(listing.specs.map(\.name) == ["flow-tags", "home-feed"])
            #expect(listing.specs[0].layouts.isEmpty)
            let feed = listing.specs[1]
            #expect(feed.axis == "vertical" && feed.sections == 4)
            let spec = try Spec(contentsOfFile: Self.homeFeed)
            #expect(feed.layouts.map(\.extent) == [390, 820])
            #expect(feed.layouts.map(\.state) == ["fresh", "stale"])
            for layout in feed.layouts {
                let expected = try LayoutEngine().layout(spec, crossExtent: try #require(layout.extent))
                #expect(layout.elements == expected.elementCount)
                #expect(layout.contentSize == expected.contentSize.pair)
                #expect(layout.frameBytes == expected.summary.cellCount * 32)
                #expect((layout.computeSeconds ?? -1) >= 0)
            }
        }
    }

    @Test("list ndjson: one line per layout with its spec's fields; a spec without layouts is one line of state none")
    func listNDJSON() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try makeStore(in: directory)
            let json = try DecodedOutput.decode(DecodedOutput.Listing.self, from: try CLIRunner.run(["list", "--db", database, "--format", "json"]).stdout)
            let output = try CLIRunner.run(["list", "--db", database, "--format", "ndjson"])
            #expect(output.status == 0, "\(output.stderr)")
            let lines = try output.stdout.split(separator: "\n").map { try DecodedOutput.decode(DecodedOutput.StoredLayout.self, from: $0) }
            #expect(lines.count == 3, "\(output.stdout)")
            #expect(lines.first == DecodedOutput.StoredLayout(name: "flow-tags", axis: "vertical", sections: 1, state: "none"))
            let expected = json.specs[1].layouts.map { layout in
                var line = layout
                (line.name, line.axis, line.sections) = ("home-feed", "vertical", 4)
                return line
            }
            #expect(Array(lines.dropFirst()) == expected)
        }
    }

    @Test("layout prints a table on a terminal or with --format table, JSON when piped")
    func layoutTable() async throws {
        let expected = try LayoutEngine().layout(Spec(contentsOfFile: Self.flow), crossExtent: 390)
        let onTerminal = try CLIRunner.runOnTerminal(["layout", Self.flow, "--width", "390"], terminal: .stdout)
        #expect(onTerminal.status == 0, "\(onTerminal.stderr)")
        let explicit = try CLIRunner.run(["layout", Self.flow, "--width", "390", "--format", "table"])
        #expect(explicit.stdout == onTerminal.stdout)
        let lines = explicit.stdout.split(separator: "\n")
        #expect(lines.first == "vertical, extent 390, content 390×\(JSONWriter.format(expected.contentSize.height)), \(expected.elementCount) elements")
        #expect(lines.count == expected.elementCount + 3)
        #expect(lines.dropFirst().first?.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } == ["kind", "section", "item", "x", "y", "width", "height", "z"])
        let rows = lines.dropFirst(3).map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        for (row, element) in zip(rows, expected.elements) {
            #expect(row == Self.row(element))
        }
        let piped = try CLIRunner.run(["layout", Self.flow, "--width", "390"])
        #expect(try DecodedOutput.decode(DecodedOutput.Layout.self, from: piped.stdout).elements?.count == expected.elementCount)
    }

    @Test("query and item print tables on a terminal")
    func storeTablesOnTerminal() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = try makeStore(in: directory)
            let layout = try LayoutEngine().layout(Spec(contentsOfFile: Self.homeFeed), crossExtent: 390)
            let rect = Rect(x: 0, y: 0, width: 390, height: 300)
            let query = try CLIRunner.runOnTerminal(["query", "--db", database, "--name", "home-feed", "--width", "390", "--rect", "0,0,390,300"], terminal: .stdout)
            #expect(query.status == 0, "\(query.stderr)")
            let hits = layout.elements(in: rect)
            #expect(query.stdout.split(separator: "\n").first == "vertical, extent 390, content 390×\(JSONWriter.format(layout.contentSize.height)), \(hits.count) elements")
            #expect(Self.rows(query.stdout) == hits.map(Self.row))

            let item = try CLIRunner.runOnTerminal(["item", "--db", database, "--name", "home-feed", "--width", "390", "--section", "2", "--item", "3"], terminal: .stdout)
            #expect(item.status == 0, "\(item.stderr)")
            #expect(Self.rows(item.stdout) == [Self.row(try #require(layout.element(section: 2, item: 3)))])
        }
    }

    /// A table's rows below its header, as cells.
    static func rows(_ table: String) -> [[String]] {
        table.split(separator: "\n").dropFirst(3).map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
    }

    static func row(_ element: LayoutElement) -> [String] {
        let frame = element.frame
        return [element.kind.rawValue, String(element.section), element.item.map(String.init) ?? "-"]
            + [frame.x, frame.y, frame.width, frame.height].map { JSONWriter.format($0) } + [String(element.zIndex)]
    }
}
