import TesseraLayout
import TesseraStore
import TesseraStoreFormat

/// One of `count` disjoint parts of a set of specs, chosen by a stable hash
/// of each spec's name (its NFC form, hashed with XXH64): the same on every
/// machine and in every run, whatever order the specs come in or however
/// their files are split. `count` processes, each given its own `index`
/// (0 to `count − 1`, as a Kubernetes indexed Job's `JOB_COMPLETION_INDEX`),
/// store every spec exactly once between them.
///
/// ```swift
/// let shard = try SpecShard(parsing: "3/16")
/// try await store.saveBatch(specs.lazy.filter { shard.contains(name: $0.name ?? "") }, crossExtents: [390])
/// ```
public struct SpecShard: Sendable, Hashable, CustomStringConvertible {
    /// From 0 to `count − 1`.
    public let index: Int
    /// 1 to 65,536.
    public let count: Int

    /// The most shards a set of specs is cut into.
    public static let maximumCount = 65_536

    /// - Throws: `StoreError` with code `invalidArgument` unless
    ///   `1 ≤ count ≤ 65,536` and `0 ≤ index < count`.
    public init(index: Int, count: Int) throws {
        guard (1...Self.maximumCount).contains(count) else {
            throw StoreError(.invalidArgument, "a shard count must be 1 to \(Self.maximumCount), not \(count)")
        }
        guard (0..<count).contains(index) else {
            throw StoreError(.invalidArgument, "shard \(index) of \(count) does not exist: shards are numbered 0 to \(count - 1)")
        }
        self.index = index
        self.count = count
    }

    /// `I/N`, as `--shard` takes it: shard I (from 0) of N.
    ///
    /// - Throws: `StoreError` with code `invalidArgument` naming what is wrong.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw StoreError(.invalidArgument, "a shard is I/N (shard I, from 0, of N), not \(text.quotedForMessage)")
        }
        try self.init(index: index, count: count)
    }

    /// Whether the spec named `name` belongs to this shard.
    public func contains(name: String) -> Bool {
        Self.number(of: name, count: count) == index
    }

    /// The shard of `count` that `name` belongs to.
    public static func number(of name: String, count: Int) -> Int {
        let bytes = Array(Spec.normalizedName(name).utf8)
        let hash = bytes.withUnsafeBytes { Checksum.xxh64($0) }
        return Int(hash % UInt64(max(1, count)))
    }

    public var description: String { "\(index)/\(count)" }
}
