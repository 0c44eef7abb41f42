import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraStoreFormat

/// Placer states are written by `CompactJSONEncoder` and read by
/// Foundation's `JSONDecoder`: whatever `Codable` form a placer (ours or a
/// user's kind) has, the values must come back equal.
@Suite("store: the compact JSON encoder of placer states")
struct CompactJSONEncoderTests {
    enum Shape: Codable, Equatable {
        case none
        case columns(Int, widths: [Double])
        case named(String)
    }

    class Base: Codable {
        var baseValue = 7
    }

    final class Derived: Base, @unchecked Sendable {
        var extra: [String: Int8] = ["a": -3]

        override init() { super.init() }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            extra = try container.decode([String: Int8].self, forKey: .extra)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(extra, forKey: .extra)
            try super.encode(to: container.superEncoder())
        }

        private enum CodingKeys: String, CodingKey { case extra }
    }

    struct Everything: Codable, Equatable {
        var double: Double
        var float: Float
        var integers: [Int]
        var small: UInt8
        var large: UInt64
        var flag: Bool
        var text: String
        var optional: Double?
        var missing: String?
        var nested: [[Double]]
        var shapes: [Shape]
        var axis: Axis
        var dictionary: [String: Double]
    }

    static func random(using generator: inout SeededRandom) -> Everything {
        func double() -> Double {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0: Double(Int.random(in: -1000...1000, using: &generator))
            case 1: Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &generator)) * (Bool.random(using: &generator) ? 1 : -1)
            case 2: -0.0
            default: Double.random(in: -1e6...1e6, using: &generator)
            }
        }
        let float = Float(double())
        return Everything(
            double: double(), float: float.isFinite ? float : 1.5,
            integers: (0..<Int.random(in: 0...5, using: &generator)).map { _ in Int.random(in: .min ... .max, using: &generator) },
            small: UInt8.random(in: 0...255, using: &generator), large: UInt64.random(in: 0 ... .max, using: &generator),
            flag: Bool.random(using: &generator), text: ["", "plain", "quote \" back \\ slash", "line\nbreak\ttab\u{1}", "é ✓ 🎉"].randomElement(using: &generator) ?? "",
            optional: Bool.random(using: &generator) ? double() : nil, missing: nil,
            nested: (0..<Int.random(in: 0...3, using: &generator)).map { _ in (0..<Int.random(in: 0...3, using: &generator)).map { _ in double() } },
            shapes: [.none, .columns(Int.random(in: 0...9, using: &generator), widths: [double(), double()]), .named("x")],
            axis: Bool.random(using: &generator) ? .vertical : .horizontal,
            // One key: a dictionary's order differs between equal dictionaries.
            dictionary: ["b \"c\"": double()]
        )
    }

    @Test("random values of every Codable shape decode back equal, and decode as Foundation's encoding does")
    func roundTrips() throws {
        var generator = SeededRandom(seed: 0xC0DE)
        for _ in 0..<2_000 {
            let value = Self.random(using: &generator)
            let ours = try CompactJSONEncoder.encode(value)
            let decoded = try JSONDecoder().decode(Everything.self, from: Data(ours))
            // -0 and NaN-free doubles compare by bits, so −0 keeps its sign.
            #expect(decoded == value && decoded.double.bitPattern == value.double.bitPattern, "\(String(decoding: ours, as: UTF8.self))")
            let foundations = try JSONDecoder().decode(Everything.self, from: try JSONEncoder().encode(value))
            #expect(try CompactJSONEncoder.encode(foundations) == ours)
        }
    }

    @Test("exact text: members in encoding order, shortest numbers, escaped strings, null for nil, super encoders")
    func exactText() throws {
        struct Small: Codable {
            var b = 390.0
            var a: [Double?] = [0.1, nil, -0.0]
            var s = "q\""
        }
        #expect(String(decoding: try CompactJSONEncoder.encode(Small()), as: UTF8.self) == #"{"b":390,"a":[0.1,null,-0],"s":"q\""}"#)
        let derived = try CompactJSONEncoder.encode(Derived())
        #expect(String(decoding: derived, as: UTF8.self) == #"{"extra":{"a":-3},"super":{"baseValue":7}}"#)
        #expect(try JSONDecoder().decode(Derived.self, from: Data(derived)).extra == ["a": -3])
    }

    @Test("a number JSON cannot hold is refused with its path")
    func nonFinite() {
        struct Bad: Codable { var values = [1, Double.infinity] }
        #expect(throws: EncodingError.self) { try CompactJSONEncoder.encode(Bad()) }
    }
}
