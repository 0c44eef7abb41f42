import TesseraLayout
import TesseraStoreFormat

/// Thrown inside a read when what a backend's index found cannot be proven
/// complete from verified rows: the query then loads the layout's whole
/// directory, verified, and answers from it instead.
struct UnverifiedIndex: Error {}

/// A query of a layout whose directory is not cached, through the backend's indexes, which only say where to look
/// (their pages carry no checksum: a damaged one could leave rows out without any error); verified rows numbered
/// without a gap prove that nothing was left out (see `GroupReach`), else the query throws ``UnverifiedIndex``.
struct IndexedGroups {
    let layout: StoredLayout
    let section: SectionRecord
    let storage: RowSnapshot

    /// The section's groups whose bounds may meet `bounds`, in item order,
    /// with their frame blobs as stored (to be checked against their checksums).
    func groups(meeting bounds: QueryBounds) throws -> [GroupRow] {
        let size = FrameBlob.framesPerGroup
        let count = section.geometry.itemCount
        guard count != 0 else { return [] }
        // The first item of the section's last group.
        let last = SectionGroups.firstItem(ofGroupHolding: count - 1)
        // The index's groups: where to read. None found proves nothing.
        let found = try storage.rows.indexedGroupRange(layoutID: layout.id, slot: section.slot, bounds: bounds)
        if section.geometry.isOrthogonal { return try carouselGroups(meeting: bounds, hint: found, last: last) }
        guard let hint = found,
              hint.lowerBound >= 0, hint.upperBound <= last, hint.lowerBound % size == 0, hint.upperBound % size == 0
        else { throw UnverifiedIndex() }
        // The rows from the group before the first to the one after the
        // last, and the section's last row, which holds its slack.
        let low = max(0, hint.lowerBound - size)
        let high = min(last, hint.upperBound + size)
        var rows = try storage.groups(layoutID: layout.id, slot: section.slot, firstItems: low...high, alsoFirstItem: last, framesOf: hint)
        guard rows.last?.firstItem == last, let slack = rows.last?.reach?.slack else { throw UnverifiedIndex() }
        if high < last { rows.removeLast() }
        guard rows.count == (high - low) / size + 1,
              rows.indices.allSatisfy({ rows[$0].firstItem == low + $0 * size })
        else { throw UnverifiedIndex() }
        // Every group before the first ends before the band …
        if hint.lowerBound > 0 {
            guard let reach = rows[0].reach, reach.end < bounds.minScroll else { throw UnverifiedIndex() }
        }
        // … and every group after the last starts after it.
        if hint.upperBound < last {
            guard let reach = rows[rows.count - 1].reach, reach.start - slack > bounds.maxScroll else { throw UnverifiedIndex() }
        }
        let first = hint.lowerBound == low ? 0 : 1
        let end = hint.upperBound == high ? rows.count : rows.count - 1
        return rows[first..<end].filter { $0.bounds.mayIntersect(bounds) }
    }

    /// A carousel's groups that meet `bounds`: its cells run across the feed, so the reach along the scroll axis
    /// (`GroupReach`) proves nothing there. Its whole directory is read instead (it holds few groups), with the
    /// frames of the groups the index found; verified rows numbered without a gap prove no other group meets `bounds`.
    private func carouselGroups(meeting bounds: QueryBounds, hint: ClosedRange<Int>?, last: Int) throws -> [GroupRow] {
        let size = FrameBlob.framesPerGroup
        let rows = try storage.groups(layoutID: layout.id, slot: section.slot, firstItems: 0...last, alsoFirstItem: nil, framesOf: hint)
        guard rows.count == last / size + 1, rows.indices.allSatisfy({ rows[$0].firstItem == $0 * size }) else { throw UnverifiedIndex() }
        let meeting = rows.filter { $0.bounds.mayIntersect(bounds) }
        guard meeting.allSatisfy({ hint?.contains($0.firstItem) ?? false }) else { throw UnverifiedIndex() }
        return meeting
    }

    /// The non-empty sections of `layout` whose scroll range meets [low, high], in order. The section index only
    /// says where to start reading; the guard proves the rows read cover the band, sound because section starts and
    /// ends never decrease along a layout (stacked, spacing at least 0): no section outside them can meet the band.
    static func sections(of layout: StoredLayout, from low: Double, through high: Double, storage: RowSnapshot) throws -> [SectionRecord] {
        var rows: [SectionRecord] = []
        try storage.forEachSection(layoutID: layout.id, fromTheOneBeforeEndingAtOrAfter: low) { section in
            rows.append(section)
            return section.geometry.start <= high
        }
        guard let first = rows.first?.geometry, let last = rows.last?.geometry else {
            guard layout.sectionCount == 0 else { throw UnverifiedIndex() }
            return []
        }
        guard rows.indices.allSatisfy({ rows[$0].geometry.index == first.index + $0 }),
              first.index == 0 || first.end < low,
              last.index == layout.sectionCount - 1 || last.start > high
        else { throw UnverifiedIndex() }
        return rows.filter { !$0.geometry.isEmpty && $0.geometry.end >= low && $0.geometry.start <= high }
    }
}
