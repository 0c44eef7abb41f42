import Foundation
import Testing
@testable import TesseraLayout
import TesseraTestSupport

@Suite("layout JSON: the writer and Codable")
struct LayoutJSONTests {
    /// Doubles that are hard to print: fractions without a short decimal
    /// form, tiny and huge magnitudes, negative zero, subnormals.
    static let awkward: [Double] = [
        0, -0.0, 1, -1, 390, 1234.5, 0.1 + 0.2, 1e-7, 1e21, 1e22, 9_007_199_254_740_992, 9_007_199_254_740_994,
        -9_007_199_254_740_991, 123_456_789.125, 1.0 / 3, 2.0 / 3 * 1000, .leastNonzeroMagnitude,
        .leastNormalMagnitude, .leastNormalMagnitude / 3, .greatestFiniteMagnitude, -1e-300, 0.000001,
    ]

    static func randomElements(count: Int, seed: UInt64) -> [LayoutElement] {
        var generator = SeededRandom(seed: seed)
        func number() -> Double {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: awkward.randomElement(using: &generator) ?? 0
            case 1: Double(Int.random(in: -2000...2000, using: &generator))
            case 2: Double.random(in: -1e6...1e6, using: &generator)
            default: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator))
                * (Bool.random(using: &generator) ? 1 : -1)
            }
        }
        return (0..<count).map { _ in
            let kind = LayoutElement.Kind.allCases.randomElement(using: &generator) ?? .cell
            return LayoutElement(
                kind: kind,
                section: Int.random(in: 0...100_000, using: &generator),
                item: kind == .cell ? Int.random(in: 0...Int(Int32.max), using: &generator) : nil,
                frame: Rect(x: number(), y: number(), width: number(), height: number()),
                zIndex: kind == .cell ? 0 : Int.random(in: -1...2, using: &generator)
            )
        }
    }

    /// The text `jsonText` gave before the writer existed, built by string
    /// concatenation with the number rule of the time.
    static func referenceText(_ element: LayoutElement) -> String {
        func format(_ value: Double) -> String {
            if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
                if value == 0 { return value.sign == .minus ? "-0" : "0" }
                return String(Int64(value))
            }
            return value.description
        }
        let frame = element.frame
        var text = "{\"kind\": \"\(element.kind.rawValue)\", \"section\": \(element.section)"
        if let item = element.item { text += ", \"item\": \(item)" }
        text += ", \"frame\": [\(format(frame.x)), \(format(frame.y)), \(format(frame.width)), \(format(frame.height))]"
        return text + ", \"zIndex\": \(element.zIndex)}"
    }

    static func sameBits(_ lhs: Rect, _ rhs: Rect) -> Bool {
        [lhs.x, lhs.y, lhs.width, lhs.height].map(\.bitPattern) == [rhs.x, rhs.y, rhs.width, rhs.height].map(\.bitPattern)
    }

    @Test("the writer prints what jsonText printed, byte for byte")
    func writerMatchesReference() {
        for element in Self.randomElements(count: 5000, seed: 1) {
            var bytes: [UInt8] = []
            LayoutJSON.append(element, to: &bytes)
            #expect(bytes == Array(Self.referenceText(element).utf8))
            #expect(element.jsonText == Self.referenceText(element))
        }
    }

    @Test("the writer's text decodes with Foundation to the same doubles, bit for bit")
    func writerRoundTrips() throws {
        let elements = Self.randomElements(count: 2000, seed: 2)
        let summary = LayoutSummary(axis: .horizontal, crossExtent: 0.1 + 0.2, contentLength: 1e21, sectionCount: 1, cellCount: 1, elementCount: 1)
        var bytes: [UInt8] = []
        LayoutJSON.appendAnswer(summary: summary, elements: elements, to: &bytes)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(bytes))
        #expect(answer.axis == .horizontal)
        #expect(answer.extent.bitPattern == (0.1 + 0.2).bitPattern)
        #expect(answer.contentSize == summary.contentSize)
        #expect(answer.elements == elements)
        for (decoded, element) in zip(answer.elements, elements) { #expect(Self.sameBits(decoded.frame, element.frame)) }
    }

    @Test("JSONEncoder and JSONDecoder round-trip elements, rects and sizes")
    func codableRoundTrips() throws {
        let elements = Self.randomElements(count: 2000, seed: 3)
        let decoded = try JSONDecoder().decode([LayoutElement].self, from: JSONEncoder().encode(elements))
        #expect(decoded == elements)
        for (decoded, element) in zip(decoded, elements) { #expect(Self.sameBits(decoded.frame, element.frame)) }
        let sizes = Self.awkward.map { Size(width: $0, height: -$0) }
        #expect(try JSONDecoder().decode([Size].self, from: JSONEncoder().encode(sizes)) == sizes)
    }

    @Test("Codable writes the contract's shapes")
    func codableShapes() throws {
        let cell = LayoutElement(kind: .cell, section: 0, item: 3, frame: Rect(x: 0, y: 44, width: 100, height: 50.5))
        let header = LayoutElement(kind: .header, section: 1, frame: Rect(x: 0, y: 0, width: 390, height: 44))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(cell), as: UTF8.self)
            == #"{"frame":[0,44,100,50.5],"item":3,"kind":"cell","section":0,"zIndex":0}"#)
        #expect(String(decoding: try encoder.encode(header), as: UTF8.self)
            == #"{"frame":[0,0,390,44],"kind":"header","section":1,"zIndex":1}"#)
        #expect(String(decoding: try encoder.encode(Size(width: 390, height: 1234.5)), as: UTF8.self) == "[390,1234.5]")
        // The writer's text decodes with the library's Codable too.
        #expect(try JSONDecoder().decode(LayoutElement.self, from: Data(cell.jsonText.utf8)) == cell)
        #expect(try JSONDecoder().decode(LayoutElement.self, from: Data(header.jsonText.utf8)) == header)
    }

    @Test("sizes also decode from the keyed form of older placer states; malformed shapes are errors")
    func decodingForms() throws {
        #expect(try JSONDecoder().decode(Size.self, from: Data(#"{"width": 3, "height": 4}"#.utf8)) == Size(width: 3, height: 4))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Size.self, from: Data("[1, 2, 3]".utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Rect.self, from: Data("[1, 2, 3]".utf8)) }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LayoutElement.self, from: Data(#"{"kind": "tile", "section": 0, "frame": [0, 0, 1, 1], "zIndex": 0}"#.utf8))
        }
    }

    @Test("a whole answer is the CLI's json text; an empty one closes at once")
    func answerText() {
        let summary = LayoutSummary(axis: .vertical, crossExtent: 390, contentLength: 1234.5, sectionCount: 1, cellCount: 1, elementCount: 2)
        let elements = [
            LayoutElement(kind: .header, section: 0, frame: Rect(x: 0, y: 0, width: 390, height: 44)),
            LayoutElement(kind: .cell, section: 0, item: 0, frame: Rect(x: 0, y: 44, width: 100, height: 50)),
        ]
        #expect(LayoutJSON.text { LayoutJSON.appendAnswer(summary: summary, elements: elements, to: &$0) } == """
        {"axis": "vertical", "extent": 390, "contentSize": [390, 1234.5],
         "elements": [
          {"kind": "header", "section": 0, "frame": [0, 0, 390, 44], "zIndex": 1},
          {"kind": "cell", "section": 0, "item": 0, "frame": [0, 44, 100, 50], "zIndex": 0}
         ]}
        """)
        #expect(LayoutJSON.text { LayoutJSON.appendAnswer(summary: summary, elements: [], to: &$0) }
            == "{\(summary.jsonMembers),\n \"elements\": []}")
    }

    @Test("an answer written straight into memory is the appended one, byte for byte, numbers repeated or not", arguments: [1, 2, 3] as [UInt64])
    func writtenAnswer(seed: UInt64) {
        var generator = SeededRandom(seed: seed)
        // Fractions drawn again and again from a pool, as an answer's frames repeat their widths and columns.
        let pool = (0..<12).map { _ in Double.random(in: -1e6...1e6, using: &generator) } + [1.0 / 3, -0.0]
        func number() -> Double { pool.randomElement(using: &generator) ?? 0 }
        let elements = (0..<200).map { index in
            LayoutElement(kind: .cell, section: 0, item: index, frame: Rect(x: number(), y: number(), width: number(), height: number()))
        } + Self.randomElements(count: 50, seed: seed)
        let summary = LayoutSummary(axis: .vertical, crossExtent: 390.5, contentLength: 1e6 / 3, sectionCount: 1, cellCount: 250, elementCount: 250)
        for count in [0, 1, 17, elements.count] {
            let prefix = Array(elements.prefix(count))
            let appended = LayoutJSON.text { LayoutJSON.appendAnswer(summary: summary, elements: prefix, to: &$0) }
            let capacity = LayoutJSON.maximumAnswerLength(elementCount: prefix.count)
            let written = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                initialized = buffer.baseAddress.map { LayoutJSON.writeAnswer(summary: summary, elements: prefix, into: UnsafeMutableRawPointer($0)) } ?? 0
            }
            #expect(String(decoding: written, as: UTF8.self) == appended, "\(count) elements")
            let expected = prefix.map(Self.referenceText).joined(separator: ",\n  ")
            #expect(count == 0 || appended.contains(expected))
        }
    }

    @Test("integers print as before, the extremes too")
    func integers() {
        for value in [0, 7, 10, -10, 99, 100, Int.max, Int.min + 1, Int.min] {
            var bytes: [UInt8] = []
            JSONWriter.append(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }

    struct Answer: Decodable {
        var axis: Axis
        var extent: Double
        var contentSize: Size
        var elements: [LayoutElement]
    }
}
