import Testing
@testable import TesseraStore

@Suite("store: words as hex")
struct PaddedHexTests {
    @Test("a word is its 16 lowercase hex digits, zeros in front, as String(_:radix:) spells them")
    func digits() {
        #expect(UInt64(0).paddedHex == "0000000000000000")
        #expect(UInt64(0xABC).paddedHex == "0000000000000abc")
        #expect(UInt64.max.paddedHex == "ffffffffffffffff")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<1_000 {
            let value = UInt64.random(in: 0 ... .max, using: &generator) >> UInt64.random(in: 0..<64, using: &generator)
            let digits = String(value, radix: 16)
            #expect(value.paddedHex == String(repeating: "0", count: 16 - digits.count) + digits)
        }
    }
}
