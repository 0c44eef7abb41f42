import Foundation
import FoundationXML
import Testing
import TesseraLayout

@Suite("tessera render --db, end to end")
struct RenderStoreTests {
    /// Renders `example` from its spec file and from a store, with the same
    /// rect and range; returns both SVG texts and the spec.
    private func renderBoth(_ example: String, extent: Double, extra: [String]) throws -> (spec: String, stored: String, loaded: Spec, directory: URL) {
        let directory = try CLIRunner.temporaryDirectory()
        let path = CLIRunner.repository.appendingPathComponent("Examples/\(example)").path
        let loaded = try Spec(contentsOfFile: path)
        let flag = loaded.axis == .vertical ? "--width" : "--height"
        let database = directory.appendingPathComponent("store.sqlite").path
        let saved = try CLIRunner.run(["precompute", path, "--db", database, flag, JSONWriter.format(extent), "--name", "example", "--quiet"])
        #expect(saved.status == 0, "\(saved.stderr)")
        let fromSpec = directory.appendingPathComponent("spec.svg")
        let fromStore = directory.appendingPathComponent("store.svg")
        let first = try CLIRunner.run(["render", path, flag, JSONWriter.format(extent), "--out", fromSpec.path] + extra)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try CLIRunner.run(["render", "--db", database, "--name", "example", flag, JSONWriter.format(extent), "--out", fromStore.path] + extra)
        #expect(second.status == 0, "\(second.stderr)")
        return (try String(contentsOf: fromSpec, encoding: .utf8), try String(contentsOf: fromStore, encoding: .utf8), loaded, directory)
    }

    @Test("a stored layout draws the same picture as its spec, one shape per element in range", arguments: LayoutCommandTests.examples)
    func sameAsSpec(example: String) async throws {
        let rendered = try renderBoth(example, extent: 390, extra: ["--rect", "10,20,200,300"])
        defer { try? FileManager.default.removeItem(at: rendered.directory) }
        #expect(rendered.stored == rendered.spec)
        let document = try XMLDocument(xmlString: rendered.stored)
        let shapes = try document.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element')]")
        let layout = try LayoutEngine().layout(rendered.loaded, crossExtent: 390)
        let length = max(min(layout.summary.contentLength, 5000), 1)
        let area = rendered.loaded.axis == .vertical
            ? Rect(x: 0, y: 0, width: 390, height: length)
            : Rect(x: 0, y: 0, width: length, height: 390)
        #expect(shapes.count == layout.elements(in: area).count)
        let hits = try document.nodes(forXPath: "//*[local-name()='rect'][contains(@class, ' hit')]")
        #expect(hits.count == layout.elements(in: Rect(x: 10, y: 20, width: 200, height: 300)).count)
    }

    @Test("--range on a long stored feed draws only that stretch, as the spec path does")
    func range() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("long.json")
        try #"{"format": 1, "name": "long", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "header": {"size": 40, "pinned": true}, "items": {"count": 200000, "cycle": [{}]}}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("long.sqlite").path
        #expect(try CLIRunner.run(["precompute", spec.path, "--db", database, "--width", "400", "--quiet"]).status == 0)
        let stored = directory.appendingPathComponent("stored.svg")
        let output = try CLIRunner.run([
            "render", "--db", database, "--name", "long", "--width", "400", "--out", stored.path,
            "--range", "1000040,1000440", "--rect", "0,1000100,400,200",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr == "render: 16 elements in \(stored.path)\n")
        let document = try XMLDocument(contentsOf: stored)
        // Rows of 100 points after a 40-point header: rows 10000 to 10003 meet the range.
        let shapes = try document.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element')]")
        #expect(shapes.count == 16)
        #expect(try document.nodes(forXPath: "//*[local-name()='rect'][contains(@class, ' hit')]").count == 12)
        let items = try shapes.compactMap { node in try (node.nodes(forXPath: "@data-item").first?.stringValue).flatMap { Int($0) } }
        #expect(items == Array(40000..<40016))

        let fromSpec = directory.appendingPathComponent("spec.svg")
        #expect(try CLIRunner.run([
            "render", spec.path, "--width", "400", "--out", fromSpec.path, "--range", "1000040,1000440", "--rect", "0,1000100,400,200",
        ]).status == 0)
        #expect(try Data(contentsOf: stored) == Data(contentsOf: fromSpec))
    }

    @Test("a stored layout missing at the width asked for is computed first, and said so")
    func computesMissingWidth() async throws {
        let rendered = try renderBoth("home-feed.json", extent: 390, extra: [])
        defer { try? FileManager.default.removeItem(at: rendered.directory) }
        let database = rendered.directory.appendingPathComponent("store.sqlite").path
        let out = rendered.directory.appendingPathComponent("wide.svg")
        let output = try CLIRunner.run(["render", "--db", database, "--name", "example", "--width", "820", "--out", out.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("was missing or stale; computed and stored it"))
        let path = CLIRunner.repository.appendingPathComponent("Examples/home-feed.json").path
        let expected = rendered.directory.appendingPathComponent("expected.svg")
        #expect(try CLIRunner.run(["render", path, "--width", "820", "--out", expected.path]).status == 0)
        #expect(try Data(contentsOf: out) == Data(contentsOf: expected))
    }

    @Test("both or neither of SPEC and --db, and bad stores, fail with one line and write nothing")
    func failures() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let example = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
        let database = directory.appendingPathComponent("store.sqlite").path
        #expect(try CLIRunner.run(["precompute", example, "--db", database, "--width", "390", "--quiet"]).status == 0)
        let out = directory.appendingPathComponent("out.svg").path
        let cases: [([String], String)] = [
            (["render", "--width", "390", "--out", out], "give a SPEC file to render, or --db FILE --name N for a stored layout"),
            (["render", example, "--db", database, "--name", "flow-tags", "--width", "390", "--out", out], "give either a SPEC file or --db FILE --name N, not both"),
            (["render", example, "--name", "flow-tags", "--width", "390", "--out", out], "give either a SPEC file or --db FILE --name N, not both"),
            (["render", "--db", database, "--width", "390", "--out", out], "--db needs --name, the stored spec's name"),
            (["render", "--db", database, "--name", "nope", "--width", "390", "--out", out], "no spec named \"nope\" is stored; save or precompute it first"),
            (["render", "--db", database, "--name", "flow-tags", "--height", "390", "--out", out], "the spec scrolls vertically: give its container width with --width (and no --height)"),
        ]
        for (arguments, message) in cases {
            #expect(try CLIRunner.failure(arguments) == "error: " + message, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
        let missing = directory.appendingPathComponent("missing.sqlite").path
        let line = try CLIRunner.failure(["render", "--db", missing, "--name", "flow-tags", "--width", "390", "--out", out])
        #expect(line == "error: no store at '\(missing)': check the path (precompute creates a store)")
        #expect(!FileManager.default.fileExists(atPath: missing), "a typo must not create an empty store")
    }
}
