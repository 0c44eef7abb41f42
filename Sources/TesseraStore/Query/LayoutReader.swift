import TesseraLayout
import TesseraStoreFormat

/// Queries on one stored layout, inside a read snapshot.
struct LayoutReader {
    /// The layout's row, behind one reference: a reader answered from
    /// memory takes the one remembered, not a copy (three retains a query).
    private let box: LayoutRecordBox
    var record: LayoutRecord { _read { yield box.record } }
    /// The read's snapshot; nil for an answer from memory alone, which
    /// throws ``AnswerNeedsStorage`` where it needs a row (see ``storage``).
    private let snapshot: (RowSnapshot)?
    /// The store: its frame cache and, for errors, its location.
    let store: LayoutStore
    /// The layout's directory from the shared cache, or nil: queried
    /// through the backend's spatial index instead.
    let cache: CachedLayout?
    /// The read's runs, nil for an answer from memory (which counts its frames itself).
    private let runs: ReadRuns?

    init(box: LayoutRecordBox, storage: (RowSnapshot)?, store: LayoutStore, cached: CachedLayout?, runs: ReadRuns?) {
        (self.box, snapshot, self.store, cache, self.runs) = (box, storage, store, cached, runs)
    }

    /// The read's snapshot, or ``AnswerNeedsStorage`` thrown by a query
    /// answered from memory alone: that query then runs as a read.
    var storage: RowSnapshot {
        get throws {
            guard let snapshot else { throw AnswerNeedsStorage() }
            return snapshot
        }
    }

    var layout: StoredLayout { record.layout }

    /// The on-screen content size, from the box's copied fields.
    private var contentSize: Size { box.axis.size(crossExtent: box.crossExtent, contentLength: box.contentLength) }

    /// The same reader with the directory `cached`.
    func with(cached: CachedLayout) -> LayoutReader {
        LayoutReader(box: box, storage: snapshot, store: store, cached: cached, runs: runs)
    }

    /// The left-to-right elements that intersect `rect` (pinned when
    /// `pinning`), carousels scrolled by `offsets`; the content length of
    /// each carousel searched goes into `orthogonalLengths`, the frame cache's hits and misses into `uses`.
    func elements(
        in rect: Rect, pinning: Bool, offsets: OrthogonalOffsets, orthogonalLengths: inout [Int: Double], uses: inout FrameUses
    ) throws -> [LayoutElement] {
        var result: [LayoutElement] = []
        result.reserveCapacity(64)
        let query = box.axis.localFrame(rect)
        let low = query.scroll - box.overhang
        let high = query.scrollEnd + box.overhang
        if let cache {
            // The non-empty sections of the cached directory that meet the band, in order.
            let sections = cache.sectionRange(from: low, through: high)
            // A read of a directory with no frames yet reads theirs across sections at once.
            let ahead = cache.holdsNoFrames && snapshot != nil ? try readAhead(sections, in: rect, offsets: offsets, cache: cache) : nil
            for index in sections where !cache.sections[index].geometry.isEmpty {
                try append(cache.sections[index], in: rect, pinning: pinning, offsets: offsets, cache: cache, ahead, to: &result, &orthogonalLengths, &uses)
            }
        } else {
            for section in try IndexedGroups.sections(of: layout, from: low, through: high, storage: storage) {
                try append(section, in: rect, pinning: pinning, offsets: offsets, cache: nil, to: &result, &orthogonalLengths, &uses)
            }
        }
        return result
    }

    /// Appends the elements of one section that intersect `rect` (see ``elements(in:pinning:offsets:orthogonalLengths:uses:)``).
    private func append(
        _ section: SectionRecord, in rect: Rect, pinning: Bool, offsets: OrthogonalOffsets, cache: CachedLayout?,
        _ ahead: ReadAhead? = nil, to result: inout [LayoutElement], _ orthogonalLengths: inout [Int: Double], _ uses: inout FrameUses
    ) throws {
        let geometry = section.geometry
        if let length = geometry.orthogonalContentLength { orthogonalLengths[geometry.index] = length }
        let sectionQuery = SectionQuery(section: geometry, axis: box.axis, crossExtent: box.crossExtent, offsets: offsets)
        var header = sectionQuery.supplementary(.header)
        var footer = sectionQuery.supplementary(.footer)
        if pinning {
            let pinned = PinnedSupplementaries(section: geometry, axis: box.axis, crossExtent: box.crossExtent, viewport: rect)
            header = pinned.header ?? header
            footer = pinned.footer ?? footer
        }
        var failure: Error?
        sectionQuery.appendElements(in: rect, header: header, footer: footer, to: &result) { bounds, visit in
            do {
                try forEachCandidate(section: section, bounds: bounds, cache: cache, ahead: ahead, uses: &uses, visit)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Visits the cells of one section that may meet `bounds`, in item order:
    /// the groups the cached directory names, else those the spatial index
    /// proves complete (``IndexedGroups``); each group's frames verified.
    private func forEachCandidate(section: SectionRecord, bounds: QueryBounds, cache: CachedLayout?, ahead: ReadAhead?, uses: inout FrameUses, _ visit: (Int, LocalFrame) -> Void) throws {
        guard let cache else {
            // Read with the rows that prove them complete, in one statement.
            for group in try IndexedGroups(layout: layout, section: section, storage: storage).groups(meeting: bounds) {
                let failure = group.frames.map { frames in
                    frames.withUnsafeBytes { raw in visitIntact(raw, checksum: group.framesChecksum, firstItem: group.firstItem, bounds: bounds, visit) }
                } ?? .damaged
                if let failure { throw error(failure, firstItem: group.firstItem, section: section.geometry.index) }
            }
            return
        }
        // Candidates, then their frames from the slots under one lock, then those lacking in one call (one request
        // over a network). In memory the query lends itself, on the stack when it fits: a warm query allocates nothing.
        let ordinals = cache.ordinals(ofSection: section.geometry.index)
        guard !ordinals.isEmpty else { return }
        try withUnsafeTemporaryAllocation(of: Int.self, capacity: ordinals.count) { lent in
            var count = 0
            cache.forEachCandidate(section: section.geometry.index, ordinals: ordinals, in: bounds) { position in
                lent[count] = position
                count &+= 1
            }
            guard count > 0 else { return }
            let positions = UnsafeBufferPointer(rebasing: lent[..<count])
            try withUnsafeTemporaryAllocation(of: CachedFrames?.self, capacity: count) { found in
                found.initialize(repeating: nil)
                defer { found.deinitialize() }
                let candidates = Candidates(positions: positions, found: found)
                let hits = store.cache.cachesFrames ? cache.frames(base: ordinals.lowerBound, positions: positions, into: found) : 0
                // Frames read ahead are read, not found: cached here, counted as misses.
                var held = hits
                if let ahead, held < count {
                    for index in 0..<count where found[index] == nil {
                        let ordinal = ordinals.lowerBound &+ positions[index]
                        guard let frames = ahead.first(where: { $0.ordinal == ordinal })?.frames else { continue }
                        store.cache.fill(frames, ordinal: ordinal, of: cache, key: record.cacheKey)
                        found[index] = frames
                        held &+= 1
                    }
                }
                if held < count {
                    try visitMissing(firstOrdinal: ordinals.lowerBound, section: section, cache: cache, bounds: bounds, candidates, visit)
                } else {
                    candidates.visitFound(0..<count, bounds: bounds, visit)
                }
                uses.hits &+= hits
                uses.misses &+= count &- hits
            }
        }
    }

    /// Frames read ahead, by the ordinal of their group.
    private typealias ReadAhead = [(ordinal: Int, frames: CachedFrames)]

    /// The frames of the groups `rect` meets, read in one call when they lie in more than one of `sections` (one
    /// statement or round trip, where each section makes its own) and verified; a group that fails is left to its
    /// section's read, which names it.
    private func readAhead(_ sections: Range<Int>, in rect: Rect, offsets: OrthogonalOffsets, cache: CachedLayout) throws -> ReadAhead? {
        guard store.cache.cachesFrames else { return nil }
        var wanted: [Int] = []
        wanted.reserveCapacity(min(cache.ids.count, 16))
        var sectionsMet = 0
        for index in sections {
            let geometry = cache.sections[index].geometry
            let query = SectionQuery(section: geometry, axis: box.axis, crossExtent: box.crossExtent, offsets: offsets)
            guard let bounds = query.candidateBounds(in: rect) else { continue }
            let ordinals = cache.ordinals(ofSection: geometry.index)
            let before = wanted.count
            cache.forEachCandidate(section: geometry.index, ordinals: ordinals, in: bounds) { wanted.append(ordinals.lowerBound &+ $0) }
            if wanted.count > before { sectionsMet &+= 1 }
        }
        // A screen's worth at most: a larger read gains little from one call, and each section finds its own here.
        guard sectionsMet > 1, wanted.count <= 64 else { return nil }
        var read: ReadAhead = []
        read.reserveCapacity(wanted.count)
        try storage.visitFrames(wanted.map { cache.ids[$0] }) { index, raw in
            if case .success(let frames) = CachedFrames.verified(raw, checksum: cache.checksums[wanted[index]]) { read.append((wanted[index], frames)) }
        }
        return read
    }

    /// Reads the candidates whose frames are not cached, each once and verified, and visits every candidate in item
    /// order: with a frame cache, each is cached for the queries after this one; without one, visited in place.
    private func visitMissing(
        firstOrdinal: Int, section: SectionRecord, cache: CachedLayout, bounds: QueryBounds, _ candidates: Candidates,
        _ visit: (Int, LocalFrame) -> Void
    ) throws {
        let positions = candidates.positions
        var missing: [Int] = []
        var ids: [Int64] = []
        missing.reserveCapacity(candidates.found.count)
        ids.reserveCapacity(candidates.found.count)
        for index in candidates.found.indices where candidates.found[index] == nil {
            missing.append(index)
            ids.append(cache.ids[firstOrdinal + positions[index]])
        }
        // The candidates before `next` are visited; frames cached on the way
        // are visited when their turn comes.
        var next = 0
        try visitStored(ids) { index, raw in
            let at = missing[index]
            let checksum = cache.checksums[firstOrdinal + positions[at]]
            if store.cache.cachesFrames {
                switch CachedFrames.verified(raw, checksum: checksum) {
                case .success(let read):
                    store.cache.fill(read, ordinal: firstOrdinal + positions[at], of: cache, key: record.cacheKey)
                    candidates.found[at] = read
                    return nil
                case .failure(let kind):
                    return kind
                }
            }
            candidates.visitFound(next..<at, bounds: bounds, visit)
            next = at + 1
            return visitIntact(raw, checksum: checksum, firstItem: SectionGroups.firstItem(at: positions[at]), bounds: bounds, visit)
        } failed: { index, kind in throw error(kind, firstItem: SectionGroups.firstItem(at: positions[missing[index]]), section: section.geometry.index) }
        candidates.visitFound(next..<positions.count, bounds: bounds, visit)
    }

    /// Runs `body` on the stored blobs of the groups `ids`, in order, until one fails
    /// (its index and how, passed to `failed`, which throws): blobs come in
    /// order, so one skipped is missing.
    private func visitStored(
        _ ids: [Int64], _ body: (Int, UnsafeRawBufferPointer) -> GroupFailure?, failed: (Int, GroupFailure) throws -> Void
    ) throws {
        var failure: (index: Int, kind: GroupFailure)?
        var next = 0
        try storage.visitFrames(ids) { index, raw in
            guard failure == nil else { return }
            guard index == next else { failure = (next, .damaged); return }
            next += 1
            if let kind = body(index, raw) { failure = (index, kind) }
        }
        if failure == nil, next < ids.count { failure = (next, .damaged) }
        if let failure { try failed(failure.index, failure.kind) }
    }

    /// Visits the cells of one group that may meet `bounds`, read in
    /// place, once its bytes match the checksum its verified row gives;
    /// how it failed, or nil.
    private func visitIntact(
        _ raw: UnsafeRawBufferPointer, checksum: Int64, firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void
    ) -> GroupFailure? {
        guard Checksum.of(raw) == checksum else { return .damaged }
        return FrameBlob.visit(raw, firstItem: firstItem, bounds: bounds, visit) ? nil : .unreadable
    }

    /// A group whose bytes are missing, do not match their checksum, or are
    /// no frame blob this build reads.
    private func error(_ failure: GroupFailure, firstItem: Int, section: Int) -> StoreError {
        let what = failure == .damaged ? "does not match its checksum, or is missing" : "holds bytes that are not frames"
        return damaged("the cell group of items \(firstItem)… of section \(section) \(what)")
    }

    private func damaged(_ message: String) -> StoreError {
        StoreError.damaged(store: store.location, spec: record.layout.specName, crossExtent: record.layout.crossExtent, message)
    }

    /// The cell of one item, left to right, a carousel's scrolled by its
    /// offset, with its section's geometry; nil when there is no such item.
    func cell(section: Int, item: Int, offsets: OrthogonalOffsets) throws -> (element: LayoutElement, section: SectionGeometry)? {
        guard section >= 0, section < record.layout.sectionCount, item >= 0 else { return nil }
        // The layout's row (verified) says the section exists: a missing row is damage, not "no such item".
        guard let row = try storage.section(layoutID: record.layout.id, index: section) else {
            throw damaged("the row of section \(section) is missing")
        }
        guard item < row.geometry.itemCount else { return nil }
        let first = SectionGroups.firstItem(ofGroupHolding: item)
        let frame = try storage.withFrames(layoutID: record.layout.id, slot: row.slot, firstItem: first) { raw -> LocalFrame? in
            guard let view = FrameBlob.View(raw) else { throw error(.unreadable, firstItem: first, section: section) }
            return item - first < view.count ? view.frame(at: item - first) : nil
        }
        guard let frame = frame ?? nil else {
            throw damaged("the cell group of items \(first)… of section \(section) is missing or does not hold item \(item)")
        }
        let query = SectionQuery(section: row.geometry, axis: box.axis, crossExtent: box.crossExtent, offsets: offsets)
        return (LayoutElement(kind: .cell, section: section, item: item, frame: query.scrolled(row.geometry.absolute(frame))), row.geometry)
    }
}

/// The frame cache's hits and misses of one answer's groups.
typealias FrameUses = (hits: Int, misses: Int)

/// One query's candidate groups of a section (their positions in it) and
/// their frames found cached (nil where not), in memory the query lends
/// itself for the call.
private struct Candidates {
    let positions: UnsafeBufferPointer<Int>
    let found: UnsafeMutableBufferPointer<CachedFrames?>

    /// Visits the cached frames of the candidates in `range`, in item order.
    @inline(__always)
    func visitFound(_ range: Range<Int>, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        for index in range {
            found[index]?.visit(firstItem: SectionGroups.firstItem(at: positions[index]), bounds: bounds, visit)
        }
    }
}

/// Answers in a direction and with carousels scrolled: stored frames are left to right and unscrolled, and both
/// are applied at query time (`LayoutDirection`, `OrthogonalOffsets`), so they cost no stored bytes.
extension LayoutReader {
    /// `query`'s elements in `direction`, carousels scrolled by `offsets` before mirroring, with the content length
    /// of each orthogonal section that holds any of them; nil for an item query of no such item. Past `limit`, a
    /// rect or viewport throws `tooLarge` (``AnswerLimit``).
    func answer(
        _ query: LayoutQuery, direction: LayoutDirection, offsets: OrthogonalOffsets, limit: AnswerLimit? = nil
    ) throws -> (elements: [LayoutElement], orthogonal: [OrthogonalContent])? {
        // A read's run adds what it read even when it stops for a row (see ReadRuns); from memory, only a whole answer counts.
        var uses: FrameUses = (0, 0)
        defer { runs?.add(uses) }
        let answer = try answer(query, direction: direction, offsets: offsets, limit: limit, uses: &uses)
        if runs == nil { store.cache.frameUses.count(hits: uses.hits, misses: uses.misses) }
        return answer
    }

    /// ``answer(_:direction:offsets:limit:)``, the frame cache's hits and misses added to `uses`.
    func answer(
        _ query: LayoutQuery, direction: LayoutDirection, offsets: OrthogonalOffsets, limit: AnswerLimit?, uses: inout FrameUses
    ) throws -> (elements: [LayoutElement], orthogonal: [OrthogonalContent])? {
        switch query {
        case .rect(let rect), .viewport(let rect):
            try limit?.checkBeforeReading(rect, reader: self, direction: direction, offsets: offsets, uses: &uses)
            let pinning = if case .viewport = query { true } else { false }
            var lengths: [Int: Double] = [:]
            let found = try direction.answer(for: rect, contentSize: contentSize) {
                try self.elements(in: $0, pinning: pinning, offsets: offsets, orthogonalLengths: &lengths, uses: &uses)
            }
            if let limit, found.count > limit.limit { throw limit.tooLarge(counted: found.count, exact: true) }
            return (found, lengths.isEmpty ? [] : OrthogonalContent.of(found) { lengths[$0] })
        case .item(let section, let item):
            guard let (cell, geometry) = try cell(section: section, item: item, offsets: offsets) else { return nil }
            let orthogonal = geometry.orthogonalContentLength.map { [OrthogonalContent(section: section, contentLength: $0)] } ?? []
            return ([direction.apply(to: cell, contentSize: contentSize)], orthogonal)
        }
    }
}
