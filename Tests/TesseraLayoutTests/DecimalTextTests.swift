import Testing
@testable import TesseraLayout
import TesseraTestSupport

/// `DecimalText.exactValue` is a shortcut past the C library: wherever it
/// answers, it must answer the double `Double(text)` gives, bit for bit,
/// and the parsers built on it must read every text as before.
@Suite("Decimal texts read without the C library")
struct DecimalTextTests {
    /// A random plain decimal: sign, up to 15 significant digits, leading
    /// zeros, and up to 22 fraction digits.
    static func randomDecimal(using generator: inout some RandomNumberGenerator) -> String {
        let integerDigits = Int.random(in: 1...16, using: &generator)
        let fractionDigits = Int.random(in: 0...23, using: &generator)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in "0123456789".randomElement(using: &generator) ?? "0" })
        }
        var text = Bool.random(using: &generator) ? "-" : ""
        if Int.random(in: 0..<4, using: &generator) == 0 { text += "000" }
        text += digits(integerDigits)
        if fractionDigits > 0 { text += "." + digits(fractionDigits) }
        return text
    }

    @Test("random plain decimals: the same double as the standard library, or no answer")
    func randomDecimals() throws {
        var generator = SeededRandom(seed: 0x5EED_DEC1)
        var answered = 0
        for _ in 0..<200_000 {
            let text = Self.randomDecimal(using: &generator)
            let expected = try #require(Double(text))
            if let value = DecimalText.exactValue(text.utf8) {
                answered += 1
                #expect(value.bitPattern == expected.bitPattern, "\(text): \(value) instead of \(expected)")
            }
            // The JSON parser reads what the standard library reads, shortcut or not.
            let unsigned = text.hasPrefix("-") ? text.dropFirst() : text[...]
            if unsigned.count > 1, unsigned.first == "0", unsigned.dropFirst().first != "." { continue }  // JSON forbids leading zeros.
            guard case .number(let parsed) = try JSONParser.parse(text) else { Issue.record("\(text) is not a number"); continue }
            #expect(parsed.bitPattern == expected.bitPattern, "JSON \(text): \(parsed) instead of \(expected)")
        }
        // Most texts are short enough for the shortcut; some are not.
        #expect(answered > 50_000 && answered < 190_000, "\(answered)")
    }

    @Test("exact answers: integers, fractions, −0, leading zeros, 15 significant digits")
    func exactAnswers() {
        let cases: [(String, Double)] = [
            ("0", 0), ("390", 390), ("-390", -390), ("844.5", 844.5), ("0.1", 0.1), ("123.33333333333", 123.33333333333),
            ("007", 7), ("999999999999999", 999_999_999_999_999), ("0.0000000000000000000001", 1e-22),
            ("100005.33333333", 100_005.33333333), ("12345678.9012345", 12_345_678.9012345),
        ]
        for (text, expected) in cases {
            #expect(DecimalText.exactValue(text.utf8)?.bitPattern == expected.bitPattern, "\(text)")
        }
        #expect(DecimalText.exactValue("-0".utf8)?.sign == .minus)
        #expect(DecimalText.exactValue("-0.0".utf8)?.sign == .minus)
    }

    @Test("texts left to the standard library: no answer", arguments: [
        "", "-", ".5", "5.", "+5", "1e3", "1E-3", "0x10", "1.2.3", "1,2", " 1", "1 ", "inf", "nan",
        "1234567890123456", "0.1234567890123456", "1.00000000000000000000001", "--1", "1-",
    ])
    func declined(text: String) {
        #expect(DecimalText.exactValue(text.utf8) == nil)
    }

    @Test("comma numbers: counted before read, blanks trimmed, numbers as JSON writes them and no other form")
    func commaNumbers() throws {
        #expect(try CommaNumbers.parse(" 1 ,\t-2.5, 1e3 ,1E-1", count: 4, shape: "x,y,w,h") == [1, -2.5, 1000, 0.1])
        for text in ["0x10", "+5", ".5", "5.", "inf", "nan", "1_000", "٣"] {
            #expect(throws: CommaNumbers.Failure.self, "\(text)") { try CommaNumbers.parse("0,0,1,\(text)", count: 4, shape: "x,y,w,h") }
            #expect(DecimalText.jsonNumber(text[...]) == nil, "\(text)")
        }
        #expect(DecimalText.jsonNumber("-0.5e+2"[...]) == -50)
        #expect(DecimalText.jsonNumber("0"[...]) == 0)
        #expect(DecimalText.jsonNumber("01"[...]) == nil)
        #expect(try CommaNumbers.parse("0,100005.33333333358,390,844"[...], count: 4, shape: "x,y,w,h") == [0, 100_005.33333333358, 390, 844])
        #expect(try Rect(parsing: "-10,-100,200,150") == Rect(x: -10, y: -100, width: 200, height: 150))
        func failure(_ text: String) -> String? {
            do {
                _ = try Rect(parsing: text)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(failure("a,b") == "expected 4 numbers x,y,w,h, got 2")
        #expect(failure("1,2,3,4,5") == "expected 4 numbers x,y,w,h, got 5")
        #expect(failure("1,,3,4") == "\"\" is not a finite number")
        #expect(failure("1, 2 x,3,4") == #""2 x" is not a finite number"#)
        #expect(failure("1,2,1e999,4") == #""1e999" is not a finite number"#)
        #expect(failure("0,0,-1,844") == "the width and height must not be negative")
    }
}
