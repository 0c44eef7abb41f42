import Foundation
import FoundationXML
import Testing
import TesseraLayout

@Suite("tessera render, end to end")
struct RenderCommandTests {
    @Test("every example renders to well-formed SVG with one shape per element in range", arguments: LayoutCommandTests.examples)
    func rendersExamples(example: String) async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = CLIRunner.repository.appendingPathComponent("Examples/\(example)").path
        let spec = try Spec(contentsOfFile: path)
        let flag = spec.axis == .vertical ? "--width" : "--height"
        let out = directory.appendingPathComponent("out.svg")
        let output = try CLIRunner.run(["render", path, flag, "390", "--out", out.path, "--rect", "0,0,200,300"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try XMLDocument(contentsOf: out)
        let shapes = try document.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element')]")
        let layout = try LayoutEngine().layout(spec, crossExtent: 390)
        let length = min(layout.summary.contentLength, 5000)
        let area = spec.axis == .vertical
            ? Rect(x: 0, y: 0, width: 390, height: max(length, 1))
            : Rect(x: 0, y: 0, width: max(length, 1), height: 390)
        #expect(shapes.count == layout.elements(in: area).count)
        let hits = try document.nodes(forXPath: "//*[local-name()='rect'][contains(@class, ' hit')]")
        #expect(hits.count == layout.elements(in: Rect(x: 0, y: 0, width: 200, height: 300)).count)
        #expect(try document.nodes(forXPath: "//*[local-name()='rect'][@class='query']").count == 1)
    }

    @Test("--range draws only the elements of that stretch of a long feed")
    func range() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("long.json")
        try #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 100000, "cycle": [{}]}}]}"#
            .write(to: spec, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("long.svg")
        let output = try CLIRunner.run(["render", spec.path, "--width", "400", "--out", out.path, "--range", "1000,1400"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try XMLDocument(contentsOf: out)
        // Rows of 100 points: rows 10, 11, 12 and 13 meet (1000, 1400).
        #expect(try document.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element')]").count == 16)
    }

    @Test("cells are labelled with their item numbers, centred, where the number fits")
    func itemLabels() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            // Two columns of 195-point squares: every number fits.
            let big = try CLIRunner.file("big.json", in: directory, #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 20, "cycle": [{}]}}]}"#)
            let out = directory.appendingPathComponent("big.svg")
            #expect(try CLIRunner.run(["render", big, "--width", "390", "--out", out.path]).status == 0)
            let labels = try XMLDocument(contentsOf: out).nodes(forXPath: "//*[local-name()='text']")
            #expect(labels.map { $0.stringValue ?? "" } == (0..<20).map(String.init))
            let cells = try LayoutEngine().layout(Spec(contentsOfFile: big), crossExtent: 390).elements.filter { $0.kind == .cell }
            for (label, cell) in zip(labels, cells) {
                let x = try label.nodes(forXPath: "@x").first?.stringValue.flatMap(Double.init)
                #expect(x == cell.frame.x + cell.frame.width / 2, "item \(cell.item ?? -1)")
            }

            // Forty columns of 9.75 points: no number is readable there, so none is written.
            let small = try CLIRunner.file("small.json", in: directory, #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 40}, "items": {"count": 400, "cycle": [{}]}}]}"#)
            let tiny = directory.appendingPathComponent("small.svg")
            #expect(try CLIRunner.run(["render", small, "--width", "390", "--out", tiny.path]).status == 0)
            let document = try XMLDocument(contentsOf: tiny)
            #expect(try document.nodes(forXPath: "//*[local-name()='text']").isEmpty)
            #expect(try document.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element cell')]").count == 400)
        }
    }
}
