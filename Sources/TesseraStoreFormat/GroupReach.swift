import TesseraLayout

/// How far a section's cell groups up to one reach along the scroll axis,
/// stored with each group's directory row (covered by a checksum of its
/// own): what lets a query answered through the backend's spatial index
/// prove, from verified rows, that it missed no group.
///
/// With `s(i)` and `e(i)` the scroll-axis start and end of group `i`
/// (relative to the section's items origin):
/// - ``start`` is the largest `s(j)` of the groups `j ≤ i`,
/// - ``end`` is the largest `e(j)` of the groups `j ≤ i`,
/// - ``slack`` is the largest `start(j) − s(j)` of the groups `j ≤ i`: how
///   far a group starts before one of the groups ahead of it.
///
/// All three never decrease along a section, and the section's last row
/// holds its whole slack `σ`. So for a query band `[low, high]`:
/// - every group before `a` ends before `low` when `end(a − 1) < low`;
/// - every group after `b` starts after `high` when `start(b + 1) − σ > high`,
///   since `s(j) ≥ start(j) − σ ≥ start(b + 1) − σ` for `j > b`.
/// Between `a` and `b`, verified directory rows (numbered without a gap)
/// name every group there is.
package struct GroupReach: Sendable, Equatable {
    package var start: Double
    package var end: Double
    package var slack: Double

    package init(start: Double, end: Double, slack: Double) {
        self.start = start
        self.end = end
        self.slack = slack
    }

    /// The reach of a section's first group.
    package init(first bounds: QueryBounds) {
        self.init(start: bounds.minScroll, end: bounds.maxScroll, slack: 0)
    }

    /// The reach of the group after this one's, with `bounds`.
    package func next(_ bounds: QueryBounds) -> GroupReach {
        let start = max(self.start, bounds.minScroll)
        return GroupReach(start: start, end: max(end, bounds.maxScroll), slack: max(slack, start - bounds.minScroll))
    }
}
