import TesseraLayout
import TesseraStore

extension FeedsBenchmark {
    /// The content length of each layout of `store`, by "name@width".
    static func contentLengths(of store: LayoutStore) async throws -> [String: Double] {
        Dictionary(uniqueKeysWithValues: try await store.layouts().map { ("\($0.specName)@\($0.crossExtent)", $0.contentLength) })
    }

    /// `count` distinct layouts of feeds `0..<feeds` at ``widths``, in a random order, each with a phone's
    /// screen at a random height within it (`lengths`, ``contentLengths(of:)``): the floor suite's first queries.
    static func scatteredViewports(
        feeds: Int, count: Int, lengths: [String: Double], random: inout BenchRandom
    ) -> [(name: String, width: Double, viewport: Rect)] {
        var all = (0..<feeds).flatMap { feed in widths.map { (name: "feed-\(feed)", width: $0) } }
        for index in all.indices.reversed() { all.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        return all.prefix(count).map { pick in
            let length = lengths["\(pick.name)@\(pick.width)"] ?? 0
            return (pick.name, pick.width, Rect(x: 0, y: random.unit() * max(0, length - 844), width: pick.width, height: 844))
        }
    }
}
