import Foundation
import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// The contract: numbers are printed so that they read back as the same
/// double. "The same" is bit for bit here, so −0 must stay negative.
@Suite("JSON numbers read back as the same double")
struct JSONWriterTests {
    static let awkward: [Double] = [
        // 5e-324 (the smallest subnormal) is written by name: the literal warns.
        0.1 + 0.2, 1e-7, 1e21, -0.0, 0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308,
        1.7976931348623157e308, -1.7976931348623157e308, 390, -390, 1234.5, 1.0 / 3, 124.93333333333334,
        9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e15, 1e16, 1e22, 123_456_789.125, 0.5, -2.5e-5,
    ]

    /// The double a JSON number text reads back as, by our parser and by the
    /// standard library's correctly rounded conversion.
    static func readBack(_ text: String) throws -> (parsed: Double, converted: Double?) {
        guard case .number(let parsed) = try JSONParser.parse(text) else {
            throw SpecError(path: "", reason: "'\(text)' is not a JSON number")
        }
        return (parsed, Double(text))
    }

    @Test("awkward values: sums, tiny and huge magnitudes, −0, subnormals, integers", arguments: awkward)
    func roundTrip(value: Double) throws {
        let text = JSONWriter.format(value)
        let (parsed, converted) = try Self.readBack(text)
        #expect(parsed.bitPattern == value.bitPattern, "\(value) printed as \(text) read back as \(parsed)")
        #expect(converted?.bitPattern == value.bitPattern, "\(text)")
    }

    @Test("exact texts: integers without a fraction, −0 with its sign, shortest forms")
    func exactTexts() {
        #expect(JSONWriter.format(.leastNonzeroMagnitude) == "5e-324")
        #expect(JSONWriter.format(390) == "390")
        #expect(JSONWriter.format(-390) == "-390")
        #expect(JSONWriter.format(0) == "0")
        #expect(JSONWriter.format(-0.0) == "-0")
        #expect(JSONWriter.format(9_007_199_254_740_991) == "9007199254740991")
        #expect(JSONWriter.format(0.1 + 0.2) == "0.30000000000000004")
    }

    @Test("random finite doubles of every exponent read back bit for bit")
    func randomBitPatterns() throws {
        var random = SeededRandom(seed: 0x5EED)
        var checked = 0
        var wrong: [String] = []
        while checked < 20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let text = JSONWriter.format(value)
            let (parsed, converted) = try Self.readBack(text)
            if parsed.bitPattern != value.bitPattern || converted?.bitPattern != value.bitPattern { wrong.append(text) }
            checked += 1
        }
        #expect(wrong.isEmpty, "\(wrong.count) values read back differently, such as \(wrong.prefix(5))")
    }

    /// An element as the CLI prints it, decoded by Foundation.
    struct PrintedElement: Decodable {
        var kind: String
        var section: Int
        var item: Int?
        var frame: [Double]
        var zIndex: Int
    }

    struct PrintedSummary: Decodable {
        var axis: String
        var extent: Double
        var contentSize: [Double]
    }

    @Test("the CLI's element and summary JSON parse back to the library's exact doubles", arguments: Axis.allCases)
    func elementJSON(axis: Axis) throws {
        // Thirds, tenths and a 1e-7 spacing give frames with long expansions.
        let result = try layout("""
        {"format": 1, "axis": "\(axis.rawValue)", "sectionSpacing": 0.1, "sections": [
          {"layout": {"kind": "grid", "fraction": 3, "aspectRatio": 0.7, "itemSpacing": 0.1, "lineSpacing": 1e-7},
           "header": {"size": 44.3}, "background": true, "items": {"count": 7, "cycle": [{}, {"fraction": 7}]}},
          {"layout": {"kind": "mosaic", "columns": 3, "lineMultiple": 1.3, "itemSpacing": 0.2}, "footer": {"size": 0.1},
           "items": {"count": 9, "cycle": [{"aspectRatio": 1.1}, {"aspectRatio": 0.35}]}}
        ]}
        """, extent: 375.3)
        let decoder = JSONDecoder()
        for element in result.elements {
            let text = element.jsonText
            let printed = try decoder.decode(PrintedElement.self, from: Data(text.utf8))
            let expected = [element.frame.x, element.frame.y, element.frame.width, element.frame.height]
            #expect(printed.frame.map(\.bitPattern) == expected.map(\.bitPattern), "\(text)")
            #expect(printed.kind == element.kind.rawValue && printed.section == element.section, "\(text)")
            #expect(printed.item == element.item && printed.zIndex == element.zIndex, "\(text)")
            guard case .object(let object) = try JSONParser.parse(text), case .array(let frame)? = object["frame"] else {
                Issue.record("\(text) is not an element object")
                continue
            }
            #expect(frame == expected.map { JSONValue.number($0) }, "\(text)")
        }
        let summary = try decoder.decode(PrintedSummary.self, from: Data("{\(result.summary.jsonMembers)}".utf8))
        #expect(summary.axis == axis.rawValue)
        #expect(summary.extent.bitPattern == 375.3.bitPattern)
        let size = result.contentSize
        #expect(summary.contentSize.map(\.bitPattern) == [size.width, size.height].map(\.bitPattern))
        // The layout has numbers that need all 17 digits, so the test means something.
        #expect(result.elements.contains { $0.jsonText.contains("33333333") || $0.jsonText.contains("66666666") })
    }

    @Test("canonical text: keys sorted, nulls left out, strings escaped; with and without a top-level member")
    func canonicalText() throws {
        let value = try JSONParser.parse(#"{"z": [1, null, "a\"b\\c\n\u0001é"], "id": "top", "a": {"y": null, "x": true}, "n": null}"#)
        let expected = #"{"a":{"x":true},"id":"top","z":[1,null,"a\"b\\c\n\u0001é"]}"#
        #expect(JSONWriter.canonical(value) == expected)
        #expect(JSONWriter.canonical(value, andWithout: "id") == (expected, #"{"a":{"x":true},"z":[1,null,"a\"b\\c\n\u0001é"]}"#))
        // The member first, last, alone, absent, or only nested.
        let cases: [(String, String)] = [
            (#"{"id": 1, "z": 2}"#, #"{"z":2}"#), (#"{"a": 1, "id": 2}"#, #"{"a":1}"#), (#"{"id": 1}"#, "{}"),
            (#"{"a": 1}"#, #"{"a":1}"#), (#"{"a": {"id": 1}}"#, #"{"a":{"id":1}}"#), (#"{"id": null, "a": 1}"#, #"{"a":1}"#),
        ]
        for (text, without) in cases {
            let parsed = try JSONParser.parse(text)
            #expect(JSONWriter.canonical(parsed, andWithout: "id") == (JSONWriter.canonical(parsed), without), "\(text)")
        }
    }
}
