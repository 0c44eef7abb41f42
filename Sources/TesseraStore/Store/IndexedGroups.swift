import TesseraLayout

/// Thrown inside a read when what a backend's index found cannot be proven
/// complete from verified rows: the query then loads the layout's whole
/// directory, verified, and answers from it instead.
struct UnverifiedIndex: Error {}

/// A query of a layout whose directory is not cached, answered through the
/// backend's indexes without trusting them: an index only says where to
/// look (its pages carry no checksum, and a damaged one could leave rows
/// out without any error); verified rows, numbered without a gap, then
/// prove that nothing was left out (see ``GroupReach``). When they cannot,
/// the query throws ``UnverifiedIndex``.
struct IndexedGroups {
    let layout: StoredLayout
    let section: SectionRecord
    let storage: any StorageReader

    /// The first item of the section's last group.
    private var lastFirstItem: Int {
        let count = section.geometry.itemCount
        return count == 0 ? -1 : (count - 1) - (count - 1) % CellGroupWriter.groupSize
    }

    /// The section's groups whose bounds may meet `bounds`, in item order.
    func groups(meeting bounds: QueryBounds) throws -> [GroupRecord] {
        let size = CellGroupWriter.groupSize
        let last = lastFirstItem
        guard last >= 0 else { return [] }
        // The index's groups: where to read. None found proves nothing.
        guard let hint = try storage.indexedGroupRange(layoutID: layout.id, slot: section.slot, bounds: bounds),
              hint.lowerBound >= 0, hint.upperBound <= last, hint.lowerBound % size == 0, hint.upperBound % size == 0
        else { throw UnverifiedIndex() }
        // The rows from the group before the first to the one after the last.
        let low = max(0, hint.lowerBound - size)
        let high = min(last, hint.upperBound + size)
        let rows = try storage.groups(layoutID: layout.id, slot: section.slot, firstItems: low...high)
        guard rows.count == (high - low) / size + 1,
              rows.indices.allSatisfy({ rows[$0].firstItem == low + $0 * size })
        else { throw UnverifiedIndex() }
        // Every group before the first ends before the band …
        if hint.lowerBound > 0 {
            guard let reach = rows[0].reach, reach.end < bounds.minScroll else { throw UnverifiedIndex() }
        }
        // … and every group after the last starts after it.
        if hint.upperBound < last {
            let slack = high == last ? rows[rows.count - 1].reach?.slack : try sectionSlack()
            guard let slack, let reach = rows[rows.count - 1].reach, reach.start - slack > bounds.maxScroll else { throw UnverifiedIndex() }
        }
        let first = hint.lowerBound == low ? 0 : 1
        let end = hint.upperBound == high ? rows.count : rows.count - 1
        return rows[first..<end].filter { $0.bounds.mayIntersect(bounds) }
    }

    /// The section's slack, held by its last group's row.
    private func sectionSlack() throws -> Double? {
        let last = lastFirstItem
        let rows = try storage.groups(layoutID: layout.id, slot: section.slot, firstItems: last...last)
        guard rows.count == 1, rows[0].firstItem == last else { throw UnverifiedIndex() }
        return rows[0].reach?.slack
    }

    /// The non-empty sections of `layout` whose scroll range meets [low,
    /// high], in order, found through the backend's section index and
    /// proven complete: the rows it gives are numbered without a gap, the
    /// section before the first ends before `low`, and the one after the
    /// last starts after `high` (or there is none). Section starts and ends
    /// never decrease along a layout (sections are stacked, with spacing of
    /// at least 0), so no other section can meet the band.
    static func sections(of layout: StoredLayout, from low: Double, through high: Double, storage: any StorageReader) throws -> [SectionRecord] {
        var visited: [SectionRecord] = []
        var stop: SectionRecord?
        try storage.forEachSection(layoutID: layout.id, endingAtOrAfter: low) { section in
            guard section.geometry.start <= high else {
                stop = section
                return false
            }
            visited.append(section)
            return true
        }
        let first = visited.first?.geometry.index ?? stop?.geometry.index ?? layout.sectionCount
        guard visited.indices.allSatisfy({ visited[$0].geometry.index == first + $0 }) else { throw UnverifiedIndex() }
        let next = first + visited.count
        guard stop.map({ $0.geometry.index == next }) ?? (next == layout.sectionCount) else { throw UnverifiedIndex() }
        if first > 0 {
            guard let before = try storage.section(layoutID: layout.id, index: first - 1),
                  before.geometry.index == first - 1, before.geometry.end < low
            else { throw UnverifiedIndex() }
        }
        return visited.filter { !$0.geometry.isEmpty }
    }
}
