import Foundation
import Testing
import TesseraLayout

/// `--offset SECTION=X` on query, item and render, through the built binary:
/// the library's answers with carousels scrolled, `"orthogonal"` in the
/// JSON and the first NDJSON line, and a malformed offset refused.
@Suite("tessera --offset, end to end")
struct OffsetCLITests {
    static let example = CLIRunner.repository.appendingPathComponent("Examples/carousel-feed.json").path

    static func orthogonal(_ result: LayoutResult, _ elements: [LayoutElement]) -> [DecodedOutput.Orthogonal] {
        result.orthogonalContent(of: elements).map { DecodedOutput.Orthogonal(section: $0.section, contentLength: $0.contentLength) }
    }

    @Test("layout and query --spec --offset print the library's answers with \"orthogonal\"")
    func fromSpec() throws {
        let memory = try LayoutEngine().layout(Spec(contentsOfFile: Self.example), crossExtent: 390)
        let layout = try CLIRunner.run(["layout", Self.example, "--width", "390", "--format", "ndjson"])
        #expect(layout.status == 0 && layout.stderr.isEmpty, "\(layout.stderr)")
        let all = try DecodedOutput.ndjson(layout.stdout)
        #expect(all.elements == memory.elements.map(DecodedOutput.Element.init))
        #expect(all.layout.orthogonal == Self.orthogonal(memory, memory.elements))
        #expect(all.layout.orthogonal?.map(\.section) == [1, 2, 4])

        let offsets = OrthogonalOffsets([1: 300, 4: 120])
        let viewport = Rect(x: 0, y: 200, width: 390, height: 600)
        let query = try CLIRunner.run([
            "query", "--spec", Self.example, "--width", "390", "--viewport", "0,200,390,600", "--offset", "1=300", "--offset", "4=120",
            "--rtl", "--format", "json",
        ])
        #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
        let decoded = try DecodedOutput.decode(DecodedOutput.Layout.self, from: query.stdout)
        let expected = memory.visibleElements(viewport: viewport, direction: .rightToLeft, offsets: offsets)
        #expect(decoded.elements == expected.map(DecodedOutput.Element.init))
        #expect(decoded.orthogonal == Self.orthogonal(memory, expected) && !(decoded.orthogonal ?? []).isEmpty)
        #expect(expected != memory.visibleElements(viewport: viewport, direction: .rightToLeft), "the offsets moved cells")
    }

    @Test("query, item and render --offset from a store answer as the library")
    func fromStore() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feed.sqlite").path
            let memory = try LayoutEngine().layout(Spec(contentsOfFile: Self.example), crossExtent: 390)
            let precompute = try CLIRunner.run(["precompute", Self.example, "--db", database, "--width", "390"])
            #expect(precompute.status == 0, "\(precompute.stderr)")
            let base = ["--db", database, "--name", "carousel-feed", "--width", "390"]

            let rect = Rect(x: 0, y: 0, width: 390, height: 1200)
            let query = try CLIRunner.run(["query"] + base + ["--rect", "0,0,390,1200", "--offset", "2=250", "--format", "json"])
            #expect(query.status == 0 && query.stderr.isEmpty, "\(query.stderr)")
            let hits = try DecodedOutput.decode(DecodedOutput.Layout.self, from: query.stdout)
            let expected = memory.elements(in: rect, offsets: OrthogonalOffsets([2: 250]))
            #expect(hits.elements == expected.map(DecodedOutput.Element.init))
            #expect(hits.orthogonal == Self.orthogonal(memory, expected))

            let item = try CLIRunner.run(["item"] + base + ["--section", "4", "--item", "5", "--offset", "4=-40", "--format", "ndjson"])
            #expect(item.status == 0, "\(item.stderr)")
            let cell = try #require(memory.element(section: 4, item: 5, direction: .leftToRight, offsets: OrthogonalOffsets([4: -40])))
            let decodedItem = try DecodedOutput.ndjson(item.stdout)
            #expect(decodedItem.elements == [DecodedOutput.Element(cell)])
            #expect(decodedItem.layout.orthogonal == Self.orthogonal(memory, [cell]))
            let plainItem = try CLIRunner.run(["item"] + base + ["--section", "0", "--item", "0", "--offset", "0=99", "--format", "json"])
            #expect(!plainItem.stdout.contains("orthogonal"), "section 0 scrolls with the feed")

            let out = directory.appendingPathComponent("carousels.svg").path
            let render = try CLIRunner.run(["render"] + base + ["--offset", "1=100", "--out", out])
            #expect(render.status == 0, "\(render.stderr)")
            let svg = try String(contentsOfFile: out, encoding: .utf8)
            // Trending's first card, at x = 16 unscrolled, is drawn 100 to the left, clipped to the container.
            let first = try #require(memory.element(section: 1, item: 0, direction: .leftToRight, offsets: OrthogonalOffsets([1: 100])))
            #expect(first.frame.x == -84)
            #expect(svg.contains("data-section=\"1\" data-item=\"0\" x=\"-84\""), "\(svg.prefix(600))")
            #expect(svg.contains("<clipPath id=\"area\"><rect x=\"0\" y=\"0\" width=\"390\""))
        }
    }

    @Test("a malformed --offset is refused with what is wrong", arguments: [
        (["--offset", "1"], #"error: --offset: "1" is not SECTION=X"#),
        (["--offset", "one=5"], #"error: --offset: "one" is not a section number (an integer, at least 0)"#),
        (["--offset", "1=wide"], #"error: --offset: the offset of section 1, "wide", is not a finite number"#),
        (["--offset", "1=5", "--offset", "1=-5"], "error: --offset: section 1 has more than one offset"),
    ])
    func badOffset(flags: [String], message: String) throws {
        let output = try CLIRunner.failure(["query", "--spec", Self.example, "--width", "390", "--rect", "0,0,10,10"] + flags)
        #expect(output == message + " (see 'tessera query --help')")
    }
}
