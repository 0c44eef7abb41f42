import Foundation
import Testing
import TesseraLayout

@Suite("tessera layout, end to end")
struct LayoutCommandTests {
    static let examples = try! FileManager.default
        .contentsOfDirectory(atPath: CLIRunner.repository.appendingPathComponent("Examples").path)
        .filter { $0.hasSuffix(".json") }
        .sorted()

    /// The example's path, spec, and the flag for its cross extent.
    private func load(_ example: String) throws -> (path: String, spec: Spec, flag: String) {
        let path = CLIRunner.repository.appendingPathComponent("Examples/\(example)").path
        let spec = try Spec(contentsOfFile: path)
        return (path, spec, spec.axis == .vertical ? "--width" : "--height")
    }

    @Test("json output, read back by Foundation, holds the library's doubles exactly, for every example", arguments: examples)
    func jsonMatchesLibrary(example: String) async throws {
        let (path, spec, flag) = try load(example)
        let output = try CLIRunner.run(["layout", path, flag, "390", "--format", "json"])
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        let printed = try DecodedOutput.decode(DecodedOutput.Layout.self, from: output.stdout)
        let expected = try LayoutEngine().layout(spec, crossExtent: 390)
        #expect(printed.axis == spec.axis.rawValue)
        #expect(printed.extent == 390)
        #expect(printed.contentSize == expected.contentSize.pair)
        let elements = try #require(printed.elements)
        #expect(elements.count == expected.elementCount)
        for (element, library) in zip(elements, expected.elements) {
            #expect(element == DecodedOutput.Element(library))
        }
    }

    @Test("ndjson output: a first line with the layout's fields, then one element per line, the same doubles as the library", arguments: examples)
    func ndjson(example: String) async throws {
        let (path, spec, flag) = try load(example)
        let output = try CLIRunner.run(["layout", path, flag, "320", "--format", "ndjson"])
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        let printed = try DecodedOutput.ndjson(output.stdout)
        let expected = try LayoutEngine().layout(spec, crossExtent: 320)
        #expect(printed.layout.elements == nil, "the first line has no elements")
        #expect(printed.layout.extent == 320 && printed.layout.contentSize == expected.contentSize.pair)
        #expect(printed.elements == expected.elements.map(DecodedOutput.Element.init))
    }

    @Test("bad arguments and bad specs exit non-zero with exactly one line naming the problem")
    func failures() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let bad = try CLIRunner.file("bad.json", in: directory, #"{"format": 1, "sections": [{"layout": {"kind": "grid"}, "items": [{}, {"fraction": 0}]}]}"#)
            let broken = try CLIRunner.file("broken.json", in: directory, "{\"format\": 1,\n")
            let missing = directory.appendingPathComponent("none.json").path
            let flow = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
            let shelf = CLIRunner.repository.appendingPathComponent("Examples/horizontal-shelf.json").path
            let vertical = "error: the spec scrolls vertically: give its container width with --width (and no --height)"
            let cases: [([String], String)] = [
                (["layout", bad, "--width", "390"], "error: \(bad): sections[0].items[1].fraction: must be at least 1, got 0"),
                (["layout", broken, "--width", "390"], "error: \(broken): '\(broken)' is not valid JSON: line 2, column 1: expected a key in quotes"),
                (["layout", missing, "--width", "390"], "error: \(missing): cannot read '\(missing)': No such file or directory"),
                (["layout", flow], vertical),
                (["layout", flow, "--height", "300"], vertical),
                (["layout", flow, "--width", "390", "--height", "300"], vertical),
                (["layout", shelf, "--width", "300"], "error: the spec scrolls horizontally: give its container height with --height (and no --width)"),
                (["layout", flow, "--width=-5"], "error: --width must be positive, got -5 (see 'tessera layout --help')"),
                (["layout", flow, "--width", "-5"], "error: --width must be positive, got -5 (see 'tessera layout --help')"),
                (["layout", flow, "--width", "wide"], "error: the value 'wide' is invalid for '--width <width>': not a number as JSON writes one (390, 390.5, 1e3) (see 'tessera layout --help')"),
            ]
            for (arguments, expected) in cases {
                #expect(try CLIRunner.failure(arguments) == expected, "\(arguments)")
            }
        }
    }
}

@Suite("commands that lay out in memory refuse huge specs")
struct InMemoryLimitTests {
    @Test("layout, query --spec and render of a billion items stop at once with one line pointing to precompute")
    func refuse() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let spec = try CLIRunner.file("huge.json", in: directory,
                #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 1000000000, "cycle": [{"size": [10, 10]}]}}]}"#)
            for (arguments, command) in [
                (["layout", spec, "--width", "390"], "layout"),
                (["query", "--spec", spec, "--width", "390", "--rect", "0,0,10,10"], "query --spec"),
                (["render", spec, "--width", "390", "--out", directory.appendingPathComponent("huge.svg").path], "render"),
            ] {
                let output = try CLIRunner.run(arguments)
                #expect(output.status == 1)
                #expect(output.stderr == "error: \(spec): the spec has 1000000000 items, more than the 10000000 that \(command) lays out in memory; "
                    + "store it with tessera precompute and query the store\n")
            }
        }
    }
}
