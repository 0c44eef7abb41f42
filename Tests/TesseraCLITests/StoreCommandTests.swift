import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

@Suite("tessera store commands, end to end")
struct StoreCommandTests {
    static let spec = #"""
    {"format": 1, "name": "feed", "sections": [
      {"id": "top", "layout": {"kind": "flow", "itemSpacing": 4}, "header": {"size": 30, "pinned": true}, "items": [{"size": [100, 40]}, {"size": [120, 40]}]},
      {"id": "grid", "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 60, "cycle": [{}]}}]}
    """#

    /// A folder with the spec as feed.json and a store path, not yet created.
    private func withFeed(_ body: (_ specPath: String, _ database: String, _ directory: URL) async throws -> Void) async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("feed.json", in: directory, Self.spec)
            try await body(specPath, directory.appendingPathComponent("feed.sqlite").path, directory)
        }
    }

    @Test("precompute, query, item, append, invalidate and prune work together and print the library's doubles")
    func happyPath() async throws {
        try await withFeed { specPath, database, directory in
            let spec = try Spec(contentsOfFile: specPath)
            let memory = try LayoutEngine().layout(spec, crossExtent: 390)
            let precompute = try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--width", "430"])
            #expect(precompute.status == 0, "\(precompute.stderr)")
            #expect(precompute.stdout.hasPrefix("feed @ 390: computed every section (2); \(memory.elementCount) elements, "
                + "content 390×\(JSONWriter.format(memory.contentSize.height)), "), "\(precompute.stdout)")
            let again = try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390"])
            #expect(again.stdout.hasPrefix("feed @ 390: kept 2, shifted 0, recomputed 0 sections; "), "\(again.stdout)")

            let viewport = Rect(x: 0, y: 20, width: 390, height: 300)
            let query = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "390", "--viewport", "0,20,390,300", "--format", "ndjson"])
            #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
            let decoded = try DecodedOutput.ndjson(query.stdout)
            #expect(decoded.layout.extent == 390 && decoded.layout.contentSize == memory.contentSize.pair)
            let visible = memory.visibleElements(viewport: viewport)
            #expect(visible.contains { $0.kind == .header && $0.frame.y == 20 }, "the pinned header moved")
            #expect(decoded.elements == visible.map(DecodedOutput.Element.init))
            let fromSpec = try CLIRunner.run(["query", "--spec", specPath, "--width", "390", "--viewport", "0,20,390,300", "--format", "ndjson"])
            #expect(fromSpec.stdout == query.stdout)

            let wider = try CLIRunner.run(["query", "--db", database, "--name", "feed", "--width", "500", "--rect", "0,0,500,120", "--format", "json"])
            #expect(wider.status == 0)
            #expect(wider.stderr == "query: the layout of \"feed\" at 500 was missing or stale; computed and stored it\n")
            let hits = try LayoutEngine().layout(spec, crossExtent: 500).elements(in: Rect(x: 0, y: 0, width: 500, height: 120))
            #expect(try DecodedOutput.decode(DecodedOutput.Layout.self, from: wider.stdout).elements == hits.map(DecodedOutput.Element.init))

            let itemArguments = ["item", "--db", database, "--name", "feed", "--width", "390", "--section", "1", "--item", "4", "--format", "json"]
            let item = try CLIRunner.run(itemArguments)
            #expect(item.status == 0 && item.stderr.isEmpty, "\(item.stderr)")
            let expectedItem = try #require(memory.element(section: 1, item: 4))
            #expect(try DecodedOutput.decode(DecodedOutput.Layout.self, from: item.stdout).elements == [DecodedOutput.Element(expectedItem)])
            #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "feed", "--width", "390"]).stdout == "1 layout of \"feed\" marked stale\n")
            let recomputed = try CLIRunner.run(itemArguments)
            #expect(recomputed.stderr == "item: the layout of \"feed\" at 390 was missing or stale; computed and stored it\n")
            #expect(recomputed.stdout == item.stdout)

            let items = try CLIRunner.file("more.ndjson", in: directory, "{\"size\": [50, 60]}\n\n{\"size\": [70, 20]}\n")
            let append = try CLIRunner.run(["append", "--db", database, "--name", "feed", "--section", "0", items])
            #expect(append.status == 0, "\(append.stderr)")
            #expect(append.stdout.contains("feed @ 430: kept 0, shifted 1, resumed 1, recomputed 0 sections"), "\(append.stdout)")
            var appended = spec
            appended.sections[0].items = appended.sections[0].items.appending([Item(width: 50, height: 60), Item(width: 70, height: 20)])
            let store = try LayoutStore(path: database)
            #expect(try await store.elements(name: "feed", crossExtent: 430, in: Rect(x: 0, y: 0, width: 430, height: 1e6))
                == LayoutEngine().layout(appended, crossExtent: 430).elements)

            #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "feed", "--width", "430"]).stdout == "1 layout of \"feed\" marked stale\n")
            let prune = try CLIRunner.run(["prune", "--db", database])
            #expect(prune.stdout.hasPrefix("deleted 1 stale layout; file "), "\(prune.stdout)")
            #expect(try await store.layouts().map(\.crossExtent).sorted() == [390, 500])
        }
    }

    @Test("prune gives a deleted layout's space back: the file shrinks")
    func pruneShrinks() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("big.json", in: directory,
                #"{"format": 1, "name": "big", "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 150000, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}, {"aspectRatio": 1}]}}]}"#)
            let database = directory.appendingPathComponent("big.sqlite").path
            #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--width", "820", "--quiet"]).status == 0)
            let before = try Self.bytes(of: database)
            #expect(try CLIRunner.run(["invalidate", "--db", database, "--name", "big", "--width", "820"]).status == 0)
            let prune = try CLIRunner.run(["prune", "--db", database])
            #expect(prune.status == 0, "\(prune.stderr)")
            let after = try Self.bytes(of: database)
            // About 1.5 MB of frames per width (10 bytes a cell): at least half a megabyte must go.
            #expect(after < before - 500_000, "\(before) → \(after)")
            #expect(prune.stdout.hasPrefix("deleted 1 stale layout; file "), "\(prune.stdout)")
            #expect(prune.stdout.hasSuffix(" → \(after) bytes\n"), "\(prune.stdout)")
        }
    }

    /// The store file and its write-ahead log.
    static func bytes(of database: String) throws -> Int {
        try ["", "-wal"].reduce(0) { total, suffix in
            let path = database + suffix
            guard FileManager.default.fileExists(atPath: path) else { return total }
            return total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
    }

    @Test("bad arguments and refusals exit non-zero with exactly one line on stderr, and change nothing")
    func failures() async throws {
        try await withFeed { specPath, database, directory in
            #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--quiet"]).status == 0)
            let items = try CLIRunner.file("items.ndjson", in: directory, "{\"size\": [10, 10]}\n")
            let bad = try CLIRunner.file("bad.json", in: directory,
                #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "mozaik", "columnCount": 2, "rowHeight": 10}, "items": [{"columns": 3}]}]}"#)
            let query = ["query", "--db", database, "--name", "feed", "--width", "390"]
            let item = ["item", "--db", database, "--name", "feed", "--width", "390"]
            let cases: [([String], String)] = [
                (["precompute", specPath, "--db", database], "error: the spec scrolls vertically: give one or more --width (and no --height)"),
                (["precompute", bad, "--db", database, "--width", "390"], "error: \(bad): sections[0].items[0].columns: 3 columns requested, the matrix has 2"),
                (["query", "--db", database, "--name", "nope", "--width", "390", "--rect", "0,0,1,1"], "error: no spec named \"nope\" is stored; save or precompute it first"),
                (query, "error: give exactly one of --rect or --viewport (see 'tessera query --help')"),
                (query + ["--rect", "0,0,-1,1"], "error: the value '0,0,-1,1' is invalid for '--rect <rect>': the width and height must not be negative (see 'tessera query --help')"),
                (query + ["--rect", "0;0;1;1"], "error: the value '0;0;1;1' is invalid for '--rect <rect>': expected 4 numbers x,y,w,h, got 1 (see 'tessera query --help')"),
                (["query", "--db", database, "--name", "feed", "--width", "-390", "--rect", "0,0,1,1"], "error: --width must be positive, got -390 (see 'tessera query --help')"),
                (["query", "--spec", specPath, "--name", "feed", "--width", "390", "--rect", "0,0,1,1"],
                 "error: --name is for a stored spec (with --db); --spec lays out its file as it is (see 'tessera query --help')"),
                (item + ["--section", "0", "--item", "99"], "error: \"feed\" has no item 99 in section 0 (it has 2 items)"),
                (item + ["--section", "1", "--item", "60"], "error: \"feed\" has no item 60 in section 1 (it has 60 items)"),
                (item + ["--section", "2", "--item", "0"], "error: \"feed\" has no section 2 (it has 2 sections)"),
                (["invalidate", "--db", database, "--name", "nope"], "error: no spec named \"nope\" is stored; save or precompute it first"),
                (["invalidate", "--db", database, "--name", "feed", "--width", "500"], "error: \"feed\" has no layout at width 500; stored widths: 390"),
                (["append", "--db", database, "--name", "feed", "--section", "5", items], "error: spec \"feed\" has no section 5 (it has 2)"),
            ]
            for (arguments, expected) in cases {
                #expect(try CLIRunner.failure(arguments) == expected, "\(arguments)")
            }
            let notNDJSON = try CLIRunner.failure(["append", "--db", database, "--name", "feed", "--section", "0", specPath])
            #expect(notNDJSON.hasPrefix("error: \(specPath): sections[0].items[0]: line 1 of '\(specPath)' is not valid JSON"), "\(notNDJSON)")
            // Nothing above changed the store.
            let store = try LayoutStore(path: database)
            #expect(try await store.layouts().map(\.cellCount) == [62])
            #expect(try await store.layouts().map(\.state) == [.fresh])

            let foreign = try CLIRunner.file("notes.txt", in: directory, "not a database at all, just text that is long enough")
            #expect(try CLIRunner.failure(["list", "--db", foreign]).hasPrefix("error: '\(foreign)' is not a Tessera store (not a SQLite database)."))
            #expect(try String(contentsOfFile: foreign, encoding: .utf8) == "not a database at all, just text that is long enough")
        }
    }
}
