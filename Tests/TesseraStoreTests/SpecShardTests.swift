import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraPrecompute
@testable import TesseraStoreFormat

/// Shards by a stable hash of the name: each name in exactly one shard,
/// the same in every process, canonically equivalent names together.
@Suite("store: shards of a set of specs")
struct SpecShardTests {
    @Test("every name belongs to exactly one of N shards, and the shards are about even")
    func partition() throws {
        let names = (0..<8_000).map { "feed-\($0 * 7_919)" }
        for count in [1, 2, 3, 16] {
            let shards = try (0..<count).map { try SpecShard(index: $0, count: count) }
            var sizes = [Int](repeating: 0, count: count)
            for name in names {
                let owners = shards.filter { $0.contains(name: name) }
                #expect(owners.count == 1, "\(name) in \(owners.count) of \(count) shards")
                #expect(owners.first?.index == SpecShard.number(of: name, count: count))
                sizes[owners.first?.index ?? 0] += 1
            }
            let even = names.count / count
            #expect(sizes.allSatisfy { abs($0 - even) < even / 5 + 20 }, "\(sizes)")
        }
    }

    @Test("the hash is fixed: XXH64 of the name's NFC bytes, the same on every machine and in every version")
    func stable() throws {
        // XXH64 with seed 0 of the UTF-8 bytes, modulo the count; changing
        // it would move every spec of a fleet's shard stores.
        let bytes = Array("home-feed".utf8)
        let hash = bytes.withUnsafeBytes { Checksum.xxh64($0) }
        #expect(SpecShard.number(of: "home-feed", count: 1_000) == Int(hash % 1_000))
        #expect(Array("".utf8).withUnsafeBytes { Checksum.xxh64($0) } == 0xEF46_DB37_51D8_E999, "XXH64 of no bytes")
        // Precomposed and decomposed "é": one name, one shard.
        for count in [2, 7, 64] {
            #expect(SpecShard.number(of: "caf\u{E9}", count: count) == SpecShard.number(of: "cafe\u{301}", count: count))
        }
    }

    @Test("I/N is parsed, and a shard that does not exist is refused with what is wrong")
    func parsing() throws {
        let shard = try SpecShard(parsing: "3/16")
        #expect(shard.index == 3 && shard.count == 16 && shard.description == "3/16")
        let cases = [
            ("16/16", "shard 16 of 16 does not exist: shards are numbered 0 to 15"),
            ("-1/4", "shard -1 of 4 does not exist: shards are numbered 0 to 3"),
            ("0/0", "a shard count must be 1 to 65536, not 0"),
            ("0/65537", "a shard count must be 1 to 65536, not 65537"),
            ("1", "a shard is I/N (shard I, from 0, of N), not \"1\""),
            ("1/2/3", "a shard is I/N (shard I, from 0, of N), not \"1/2/3\""),
            ("a/b", "a shard is I/N (shard I, from 0, of N), not \"a/b\""),
        ]
        for (text, message) in cases {
            let error = #expect(throws: StoreError.self) { try SpecShard(parsing: text) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == message, "\(text)")
        }
    }
}
