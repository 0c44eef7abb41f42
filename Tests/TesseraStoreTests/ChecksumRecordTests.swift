import Testing
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraStoreFormat

/// A row's checksum is XXH64 of its values' tagged bytes, hashed as they
/// are added: the same as hashing those bytes laid end to end.
@Suite("store: checksums of rows and blobs")
struct ChecksumRecordTests {
    @Test("XXH64 gives the published values (Python's xxhash agrees) for inputs below, at and past one stripe")
    func publishedValues() {
        let hash = { (bytes: [UInt8]) in bytes.withUnsafeBytes { Checksum.xxh64($0) } }
        #expect(hash([]) == 0xEF46_DB37_51D8_E999)
        #expect(hash(Array("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(hash(Array("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(hash((0..<100).map { UInt8(($0 * 7 + 3) % 256) }) == 0xA61F_8D4C_170F_E531)
    }

    @Test("a record of random values hashes as the one blob of their tags, lengths and bytes, whatever their sizes")
    func streamedEqualsWhole() {
        var generator = SeededRandom(seed: 0xC4EC_5A11)
        for _ in 0..<500 {
            var record = ChecksumRecord()
            var whole: [UInt8] = []
            let word = { (tag: UInt8, value: UInt64) in
                whole.append(tag)
                for shift in stride(from: 0, to: 64, by: 8) { whole.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
            }
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    record.addNull()
                    whole.append(0)
                case 1:
                    let value = Int64.random(in: .min ... .max, using: &generator)
                    record.add(value)
                    word(1, UInt64(bitPattern: value))
                case 2:
                    let value = Double.random(in: -1e9...1e9, using: &generator)
                    record.add(value)
                    word(2, value.bitPattern)
                default:
                    let isText = Bool.random(using: &generator)
                    let bytes = (0..<Int.random(in: 0...(Bool.random(using: &generator) ? 40 : 300), using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }
                    bytes.withUnsafeBytes { isText ? record.add(text: $0) : record.add(blob: $0) }
                    word(isText ? 3 : 4, UInt64(bytes.count))
                    whole += bytes
                }
            }
            #expect(record.checksum == Checksum.of(whole), "\(whole.count) bytes")
        }
    }
}
