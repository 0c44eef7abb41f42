/// Decoded tiles by revision and index, at most `capacity` of them: the
/// least recently used goes first.
struct TileLRU {
    struct Key: Hashable {
        var revision: String
        var index: Int
    }

    let capacity: Int
    private var tiles: [Key: DecodedTile] = [:]
    /// Least recently used first.
    private var order: [Key] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { tiles.count }

    /// The tile, now the most recently used.
    mutating func tile(_ key: Key) -> DecodedTile? {
        guard let tile = tiles[key] else { return nil }
        touch(key)
        return tile
    }

    func contains(_ key: Key) -> Bool { tiles[key] != nil }

    mutating func insert(_ tile: DecodedTile, for key: Key) {
        if tiles.updateValue(tile, forKey: key) == nil {
            order.append(key)
        } else {
            touch(key)
        }
        while tiles.count > capacity, let oldest = order.first {
            order.removeFirst()
            tiles[oldest] = nil
        }
    }

    /// Drops every tile of another revision.
    mutating func keepOnly(revision: String) {
        order.removeAll { $0.revision != revision }
        tiles = tiles.filter { $0.key.revision == revision }
    }

    private mutating func touch(_ key: Key) {
        if let position = order.firstIndex(of: key) { order.remove(at: position) }
        order.append(key)
    }
}
