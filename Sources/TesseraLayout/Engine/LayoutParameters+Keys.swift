/// Unknown keys: outside items, a key the format does not define is an
/// error, so that a typo (`"fracton": 3`) is never laid out as a default.
extension LayoutParameters {
    /// Refuses the first key of the object, in its order, that is not in
    /// `known` (null values too: a misspelled null is still a typo).
    /// - Throws: ``SpecError`` at the key's path: `unknown key; did you mean
    ///   fraction?` when a known key is close, else the keys the object takes.
    public func refuseUnknownKeys(_ known: [String]) throws {
        for key in object.keys where !known.contains(key) {
            if let guess = Self.closestKey(to: key, in: known) {
                throw path.appending(key).error("unknown key; did you mean \(guess)?")
            }
            let list = known.isEmpty ? "none" : known.joined(separator: ", ")
            throw path.appending(key).error("unknown key (this object takes: \(list))")
        }
    }

    /// The known key `key` most likely misspells: the same but for case, or
    /// within 1 edit (2 for keys of 5 characters or more, a swap of two
    /// neighbours counting as one); the first of the nearest, or nil.
    static func closestKey(to key: String, in known: [String]) -> String? {
        let typed = Array(key.lowercased().unicodeScalars)
        let limit = typed.count >= 5 ? 2 : 1
        var best: (key: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(typed, Array(candidate.lowercased().unicodeScalars), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.key
    }

    /// The optimal string alignment distance of `a` and `b` (insertions,
    /// deletions, substitutions and swaps of neighbours), or `limit + 1`
    /// once it is certain to exceed `limit`.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(1, a.count) where !a.isEmpty {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = Swift.min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
