/// Finds the sections that meet a scroll range, for rect queries of
/// in-memory layouts and stores alike.
package enum SectionSearch {
    /// The indices of the sections whose scroll range [start, end] meets
    /// [low, high]: from the first whose end reaches `low` to the last
    /// before a start passes `high`. Empty sections inside the range are
    /// included; callers skip them.
    ///
    /// Section ends and starts never decrease along a spec, so the first
    /// index is found by binary search and the walk stops at the first start
    /// past `high`.
    ///
    /// - Parameters:
    ///   - count: the number of sections.
    ///   - end: section i's scroll-axis end (`SectionGeometry.end`).
    ///   - start: section i's scroll-axis start (`SectionGeometry.start`).
    @inlinable
    package static func sections(
        from low: Double,
        through high: Double,
        count: Int,
        end: (Int) -> Double,
        start: (Int) -> Double
    ) -> Range<Int> {
        var lower = 0
        var upper = count
        while lower < upper {
            let middle = (lower + upper) / 2
            if end(middle) < low { lower = middle + 1 } else { upper = middle }
        }
        var index = lower
        while index < count, start(index) <= high { index += 1 }
        return lower..<index
    }
}
