import TesseraLayout
import TesseraStoreFormat

/// Persists a layout while the engine computes it: cells in groups of fixed item ranges
/// (`SectionGroups`: a cell's group found by arithmetic, an append rewrites only the last),
/// one frame blob and bounds each; sections as rows of their geometry.
struct CellGroupWriter: LayoutConsumer {
    let storage: any CellSink
    let layoutID: Int64
    private var groupFirstItem = -1
    /// The reach of the section's last group written, nil before its first.
    private var reach: GroupReach?
    private var frames: [LocalFrame] = []
    private var filled: [Bool] = []
    private(set) var overhang = 0.0
    /// Slots of sections whose slot is not their index (after updates).
    var slots: [Int: Int] = [:]
    /// For a resumed section, what is stored where the engine goes on (``ResumedGroup``),
    /// read before it runs; cleared when the section closes.
    var resumedGroup: ResumedGroup?
    /// States of the open section's placer along its items, written with
    /// its row (``StoredStates``); a resumed section starts with those it keeps.
    var checkpoints: [(itemCount: Int, state: [UInt8])] = []
    /// Called with the number of cells written so far.
    var progress: ((Int) -> Void)?
    private var cellsWritten = 0

    /// Checked between chunks of cells: a cancelled write stops there.
    var cancellation: CancellationFlag?
    /// The store's location, for errors.
    var location = ""

    init(storage: any CellSink, layoutID: Int64) {
        self.storage = storage
        self.layoutID = layoutID
        frames.reserveCapacity(FrameBlob.framesPerGroup)
    }

    mutating func beginSection(_ index: Int, origin: SectionOrigin) throws {
        groupFirstItem = -1
        reach = nil
    }

    func slot(of section: Int) -> Int {
        slots[section] ?? section
    }

    mutating func consumeCells(_ placed: [PlacedFrame], section: Int, origin: SectionOrigin) throws {
        try cancellation?.check()
        for cell in placed {
            let first = SectionGroups.firstItem(ofGroupHolding: cell.item)
            if first != groupFirstItem {
                try flush(section: section)
                groupFirstItem = first
                if let resumed = resumedGroup, reach == nil {
                    // Else the placer and the stored state disagree.
                    guard resumed.firstItem == first else {
                        throw StoreError(.internal, "section \(section) went on writing the group of items \(first)…, not that of items "
                                         + "\(resumed.firstItem)… as its stored state said", store: location)
                    }
                    frames = resumed.frames
                    filled = Array(repeating: true, count: frames.count)
                }
            }
            let offset = cell.item - first
            if offset >= frames.count {
                frames.append(contentsOf: repeatElement(LocalFrame(cross: 0, scroll: 0, crossLength: 0, scrollLength: 0), count: offset - frames.count + 1))
                filled.append(contentsOf: repeatElement(false, count: offset - filled.count + 1))
            }
            frames[offset] = cell.frame
            filled[offset] = true
        }
        cellsWritten += placed.count
        progress?(cellsWritten)
    }

    mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws {
        let state = try closeSection(geometry, placer: placer)
        try storage.writeSection(layoutID: layoutID, SectionRecord(geometry: geometry, slot: slot(of: geometry.index)), placerState: state)
    }

    /// Ends a section: writes its last group, not its row (an update writes
    /// every row once placed). Returns the placer's encoded state, nil for
    /// kinds that do not resume.
    mutating func closeSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws -> [UInt8]? {
        try flush(section: geometry.index)
        overhang = max(overhang, geometry.overhang)
        let state = try PlacerState.encode(placer).map { StoredStates(final: $0, checkpoints: checkpoints).bytes }
        checkpoints = []
        resumedGroup = nil
        return state
    }

    var checkpointInterval: Int? { StoredStates.interval }

    mutating func checkpoint(section: Int, itemCount: Int, placer: any ItemPlacer) throws {
        guard let state = try PlacerState.encode(placer) else { return }
        checkpoints.append((itemCount, state))
    }

    /// The reach of the group before the open one: the last one written, or
    /// for a section resumed after its first group, the one stored.
    private func reach(after section: Int) throws -> GroupReach? {
        if let reach { return reach }
        guard groupFirstItem > 0 else { return nil }
        let previous = groupFirstItem - FrameBlob.framesPerGroup
        guard let resumed = resumedGroup, resumed.firstItem == groupFirstItem else {
            throw StoreError(.internal, "section \(section) goes on at item \(groupFirstItem) without the stored group before it", store: location)
        }
        guard let stored = resumed.previousReach else {
            throw StoreError.damaged(
                store: location, "the cell group of items \(previous)… of section \(section), before the items written, is missing or has no reach")
        }
        return stored
    }

    /// Writes the open group. A kind that writes cells of one group out of
    /// order is still stored correctly as long as the group is complete.
    private mutating func flush(section: Int) throws {
        guard groupFirstItem >= 0, !frames.isEmpty else { return }
        guard filled.allSatisfy({ $0 }) else {
            throw SpecError(path: "sections[\(section)].layout", reason: "the layout wrote the cells of items \(groupFirstItem)... out of order across groups")
        }
        var bounds = QueryBounds.empty
        for frame in frames { bounds.add(frame) }
        let reach = try reach(after: section)?.next(bounds) ?? GroupReach(first: bounds)
        self.reach = reach
        let blob = FrameBlob.encode(frames[...])
        try blob.withUnsafeBytes { raw in
            _ = try storage.writeGroup(
                layoutID: layoutID, slot: slot(of: section), firstItem: groupFirstItem, frames: raw, bounds: bounds, reach: reach
            )
        }
        frames.removeAll(keepingCapacity: true)
        filled.removeAll(keepingCapacity: true)
        groupFirstItem = -1
    }
}
