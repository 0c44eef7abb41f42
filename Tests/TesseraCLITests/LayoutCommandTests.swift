import Foundation
import Testing
import TesseraLayout

@Suite("tessera layout, end to end")
struct LayoutCommandTests {
    static let examples = try! FileManager.default
        .contentsOfDirectory(atPath: CLIRunner.repository.appendingPathComponent("Examples").path)
        .filter { $0.hasSuffix(".json") }
        .sorted()

    @Test("json output parses and equals the library's layout, for every example", arguments: examples)
    func jsonMatchesLibrary(example: String) throws {
        let path = CLIRunner.repository.appendingPathComponent("Examples/\(example)").path
        let spec = try Spec(contentsOfFile: path)
        let flag = spec.axis == .vertical ? "--width" : "--height"
        let output = try CLIRunner.run(["layout", path, flag, "390", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        guard case .object(let object) = try JSONParser.parse(output.stdout) else {
            Issue.record("not a JSON object")
            return
        }
        let expected = try LayoutEngine().layout(spec, crossExtent: 390)
        #expect(object["axis"] == .string(spec.axis.rawValue))
        #expect(object["extent"] == .number(390))
        #expect(object["contentSize"] == .array([.number(expected.contentSize.width), .number(expected.contentSize.height)]))
        guard case .array(let elements) = object["elements"] else {
            Issue.record("no elements array")
            return
        }
        // Every element reads back as the same kind, indices and doubles.
        #expect(elements.count == expected.elementCount)
        for (value, element) in zip(elements, expected.elements) {
            #expect(value == (try JSONParser.parse(element.jsonText)))
        }
    }

    @Test("ndjson output: a first line with the layout's fields, then one element per line")
    func ndjson() throws {
        let path = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
        let output = try CLIRunner.run(["layout", path, "--width", "320", "--format", "ndjson"])
        #expect(output.status == 0)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        let expected = try LayoutEngine().layout(Spec(contentsOfFile: path), crossExtent: 320)
        #expect(lines.first == "{\(expected.summary.jsonMembers)}")
        #expect(Array(lines.dropFirst()) == expected.elements.map(\.jsonText))
    }

    @Test("bad arguments and bad specs exit non-zero with one line naming the problem")
    func failures() throws {
        let directory = try CLIRunner.temporaryDirectory()
        let bad = directory.appendingPathComponent("bad.json")
        try #"{"format": 1, "sections": [{"layout": {"kind": "grid"}, "items": [{}, {"fraction": 0}]}]}"#
            .write(to: bad, atomically: true, encoding: .utf8)
        let badSpec = try CLIRunner.run(["layout", bad.path, "--width", "390"])
        #expect(badSpec.status != 0)
        #expect(badSpec.stderr.contains("sections[0].items[1].fraction: must be at least 1"), "\(badSpec.stderr)")
        #expect(badSpec.stdout.isEmpty)

        let missing = try CLIRunner.run(["layout", directory.appendingPathComponent("none.json").path, "--width", "390"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("cannot read"), "\(missing.stderr)")

        let good = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path
        let noWidth = try CLIRunner.run(["layout", good])
        #expect(noWidth.status != 0)
        #expect(noWidth.stderr.contains("--width"), "\(noWidth.stderr)")
        let wrongAxis = try CLIRunner.run(["layout", good, "--height", "300"])
        #expect(wrongAxis.status != 0)
        let badWidth = try CLIRunner.run(["layout", good, "--width=-5"])
        #expect(badWidth.status != 0)
        #expect(badWidth.stderr.contains("--width must be positive, got -5"), "\(badWidth.stderr)")
    }
}
