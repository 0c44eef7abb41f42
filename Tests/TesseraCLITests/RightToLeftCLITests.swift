import Foundation
import Testing
import TesseraLayout

/// `--rtl` on layout, query, item and render, through the built binary:
/// the same doubles as the library's right-to-left answers; breakpoints
/// through `layout` and a store.
@Suite("tessera --rtl and breakpoints, end to end")
struct RightToLeftCLITests {
    static let example = CLIRunner.repository.appendingPathComponent("Examples/rtl-feed.json").path
    static let breakpoints = CLIRunner.repository.appendingPathComponent("Examples/breakpoints.json").path

    @Test("layout and query --spec --rtl print the library's mirrored answers")
    func fromSpec() throws {
        let memory = try LayoutEngine().layout(Spec(contentsOfFile: Self.example), crossExtent: 390)
        let layout = try CLIRunner.run(["layout", Self.example, "--width", "390", "--rtl", "--format", "ndjson"])
        #expect(layout.status == 0 && layout.stderr.isEmpty, "\(layout.stderr)")
        let all = try DecodedOutput.ndjson(layout.stdout)
        #expect(all.elements == memory.elements(direction: .rightToLeft).map(DecodedOutput.Element.init))
        #expect(all.elements != memory.elements.map(DecodedOutput.Element.init), "mirrored, not as stored")

        let viewport = Rect(x: 0, y: 150, width: 200, height: 300)
        let query = try CLIRunner.run(["query", "--spec", Self.example, "--width", "390", "--viewport", "0,150,200,300", "--rtl", "--format", "ndjson"])
        #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
        #expect(try DecodedOutput.ndjson(query.stdout).elements
            == memory.visibleElements(viewport: viewport, direction: .rightToLeft).map(DecodedOutput.Element.init))
    }

    @Test("query, item and render --rtl from a store answer as the library")
    func fromStore() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feed.sqlite").path
            let memory = try LayoutEngine().layout(Spec(contentsOfFile: Self.example), crossExtent: 390)
            let precompute = try CLIRunner.run(["precompute", Self.example, "--db", database, "--width", "390"])
            #expect(precompute.status == 0, "\(precompute.stderr)")

            let rect = Rect(x: 250, y: 0, width: 140, height: 200)
            let query = try CLIRunner.run(["query", "--db", database, "--name", "rtl-feed", "--width", "390", "--rect", "250,0,140,200", "--rtl", "--format", "json"])
            #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
            let hits = try #require(try DecodedOutput.decode(DecodedOutput.Layout.self, from: query.stdout).elements)
            #expect(hits == memory.elements(in: rect, direction: .rightToLeft).map(DecodedOutput.Element.init))
            #expect(!hits.isEmpty)

            let item = try CLIRunner.run(["item", "--db", database, "--name", "rtl-feed", "--width", "390", "--section", "1", "--item", "0", "--rtl", "--format", "json"])
            #expect(item.status == 0, "\(item.stderr)")
            let cell = try #require(memory.element(section: 1, item: 0, direction: .rightToLeft))
            #expect(try DecodedOutput.decode(DecodedOutput.Layout.self, from: item.stdout).elements == [DecodedOutput.Element(cell)])

            let out = directory.appendingPathComponent("rtl.svg").path
            let render = try CLIRunner.run(["render", "--db", database, "--name", "rtl-feed", "--width", "390", "--rtl", "--out", out])
            #expect(render.status == 0, "\(render.stderr)")
            let svg = try String(contentsOfFile: out, encoding: .utf8)
            // Item 0 of the first section, [16, 48, 120, 60] as stored, is drawn at 390 − 16 − 120 = 254.
            #expect(svg.contains("data-section=\"0\" data-item=\"0\" x=\"254\" y=\"48\" width=\"120\" height=\"60\""), "\(svg.prefix(600))")
        }
    }

    @Test("layout of a spec with breakpoints uses each width's parameters")
    func breakpointsLayout() throws {
        let spec = try Spec(contentsOfFile: Self.breakpoints)
        for width in ["390", "600", "1100"] {
            let output = try CLIRunner.run(["layout", Self.breakpoints, "--width", width, "--format", "ndjson"])
            #expect(output.status == 0, "\(output.stderr)")
            let memory = try LayoutEngine().layout(spec, crossExtent: Double(width) ?? 0)
            #expect(try DecodedOutput.ndjson(output.stdout).elements == memory.elements.map(DecodedOutput.Element.init), "at \(width)")
        }
    }

    @Test("a bad breakpoint is refused with its JSON path")
    func badBreakpoint() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let bad = try CLIRunner.file("bad.json", in: directory, """
            {"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "columns": 3}, {"minExtent": 900, "columns": 0}]}}]}
            """)
            let message = try CLIRunner.failure(["layout", bad, "--width", "390"], in: directory)
            #expect(message == "error: \(bad): sections[0].layout.breakpoints[1].columns: must be at least 1, got 0")
        }
    }
}
