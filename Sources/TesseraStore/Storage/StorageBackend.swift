import TesseraLayout

/// The persistence port: what a backend (a file, a database server) implements so
/// that ``LayoutStore`` can keep layouts in it. The store owns every rule
/// (incremental planning, cell grouping, fingerprints, freshness, what
/// readers may see); a backend only keeps rows and answers for them.
///
/// A backend guarantees:
/// - `read` runs its body in one consistent snapshot: every call inside sees
///   the same committed state, which includes every commit that finished,
///   in any process, before `read` began.
/// - `write` runs its body in one transaction, committed when the body
///   returns and rolled back when it throws; writes to one store run one at
///   a time (other writers wait up to the backend's timeout).
/// - Failures are thrown as ``StoreError`` with the backend's own error kept
///   as the cause.
package protocol StorageBackend: Sendable {
    /// Where the store is (a path or a URL without its password), for messages.
    var location: String { get }

    // Not generic: a generic requirement called through an existential runs
    // unspecialized, which cost 15 % of a warm query.

    /// Runs `body` in one read snapshot.
    func read(_ body: (any StorageReader) throws -> Void) throws

    /// Runs `body` in one read snapshot if a connection is free at once;
    /// false, without running it, instead of waiting for one.
    func readIfAvailable(_ body: (any StorageReader) throws -> Void) throws -> Bool

    /// Runs `body` in one write transaction.
    func write(_ body: (any StorageWriter) throws -> Void) throws

    /// Gives space freed by deletions back to the file system, after the
    /// store deleted what it prunes.
    func compact() throws

    /// Waits until the maintenance that writes scheduled in the background
    /// (checkpoints) is done.
    func finishBackgroundWork()

    /// Finishes what is in flight, leaves everything committed where a copy
    /// of the store finds it (a file-backed store: the WAL folded into the database
    /// file, and the `-wal` and `-shm` files removed when no other
    /// connection has the store open), and releases the connections.
    /// Idempotent; reads and writes after it fail with code `closed`.
    func close()

    /// Bytes the store takes on disk.
    var storageBytes: Int { get }

    /// What the backend's own checks find wrong with its files and indexes
    /// (empty when nothing); reads only.
    func integrityProblems() throws -> [String]
}

/// The rows a read sees, in one snapshot.
package protocol StorageReader: AnyObject {
    /// Per-snapshot-source state of the store (its reader cache), kept with
    /// the backend's connection between reads.
    var attachment: AnyObject? { get set }

    /// A number that changes whenever another connection committed since
    /// this one last asked: caches of resolved names are valid while it stays.
    func changeCounter() throws -> Int64

    /// Whether this read may answer from layouts resolved earlier under the
    /// same `changeCounter`; when false, it resolves them again in its own
    /// snapshot (and caches what it read). A backend whose counter lags
    /// commits says false for reads that go on to read other rows, which
    /// must be of the revision they resolve.
    var reusesResolvedLayouts: Bool { get }

    /// The exact state this read sees, when the backend can name it (see
    /// ``SnapshotTag``): the store then shares resolved layouts between
    /// readers of that state. Nil otherwise.
    var snapshotTag: SnapshotTag? { get }

    // MARK: Specs

    func specID(name: String) throws -> Int64?
    func specRecord(name: String) throws -> SpecRecord?
    /// Every stored spec, by name.
    func specSummaries() throws -> [StoredSpec]
    func specSummary(name: String) throws -> StoredSpec?
    /// The stored bodies of a spec's sections, in order.
    func sectionBodies(specID: Int64) throws -> [String]
    func sectionBody(specID: Int64, index: Int) throws -> String?
    func sectionIdentities(specID: Int64) throws -> [SectionIdentity]

    // MARK: Layouts

    /// The layout of a spec at an extent, fresh or not, with what a reader needs.
    func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord?
    func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord?
    /// Every layout of one spec (or of all specs), by name and extent.
    func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord]
    func layoutID(specID: Int64, crossExtent: Double) throws -> Int64?

    // MARK: Sections

    /// Every section row of a layout, in section order.
    func sections(layoutID: Int64) throws -> [SectionRecord]
    /// The section rows in section order, from the one before the first
    /// whose end is at least `low` (found through the backend's index on
    /// ends: a hint; from the last section when none is found), until
    /// `body` returns false. Each row verified.
    func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws
    func section(layoutID: Int64, index: Int) throws -> SectionRecord?
    func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]?
    func placerStates(layoutID: Int64) throws -> [Int: [UInt8]]

    // MARK: Cell groups

    /// Every group of a layout, by slot and first item.
    func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws
    func groupID(layoutID: Int64, slot: Int, firstItem: Int) throws -> Int64?
    /// Whether the store should call `prefetchFrames` before a query's
    /// `visitFrames` calls (a backend behind a network).
    var prefetchesFrames: Bool { get }
    /// Says which groups' frames the next `visitFrames` calls of this read
    /// will ask for, so that a backend behind a network can fetch them in one
    /// request (a local one has nothing to do), or take them from a cache.
    func prefetchFrames(_ groups: [FramesKey]) throws
    /// Runs `body` on the frame blob of a group, if there is one: the hot
    /// path of every query, so neither generic nor throwing inside.
    /// `checksum`, the frames' checksum as the group's row in this snapshot
    /// gives it, lets a backend answer from bytes it cached under the same
    /// id and checksum (the same bytes); nil reads what is stored (checks).
    func visitFrames(groupID: Int64, cachedAs checksum: Int64?, _ body: (UnsafeRawBufferPointer) -> Void) throws
    /// Runs `body` on the frame blob of the group of a slot starting at `firstItem`.
    func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R?
    /// The first items of the first and the last group of a slot that the
    /// backend's spatial index finds meeting `bounds`; nil when it finds
    /// none. A hint only: index pages carry no checksum (see `IndexedGroups`).
    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>?
    /// The directory rows of a slot whose first items lie in `firstItems`,
    /// and the row of `alsoFirstItem` when it is past them, in item order,
    /// each verified, with its reach (nil for a row without), and the frame
    /// blobs of those whose first items lie in `framesOf`: one statement.
    func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRecord]
    /// The union of a slot's groups along the scroll axis; nil without groups.
    func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>?

    // MARK: Checks

    /// Every stored row (and frame blob) that does not match its checksum,
    /// found without throwing at the first one.
    func damagedRows() throws -> [DamagedRow]
}

/// Names the committed state a read sees, exactly: two reads with equal
/// tags see the same rows, whichever connection or process runs them. A
/// backend gives one when it can tell for sure (a file-backed store in WAL mode: the
/// WAL index's header, unchanged from before the read began until after its
/// snapshot was taken); what one read resolved is then right for the others.
package struct SnapshotTag: Hashable, Sendable {
    package var words: [UInt64]

    package init(words: [UInt64]) {
        self.words = words
    }
}

extension StorageReader {
    /// The counter is exact: a resolved layout is right for the whole read.
    package var reusesResolvedLayouts: Bool { true }

    /// No exact tag: resolved layouts stay with the connection.
    package var snapshotTag: SnapshotTag? { nil }

    /// Reads are local: nothing to gain.
    package var prefetchesFrames: Bool { false }
    package func prefetchFrames(_ groups: [FramesKey]) throws {}
}

/// The rows a write changes, inside one transaction.
package protocol StorageWriter: StorageReader, CellSink {
    /// Runs `body` inside a savepoint of the write: when it throws, what it
    /// wrote is rolled back and the rest of the transaction stays.
    func savepoint<T>(_ body: () throws -> T) throws -> T

    func insertSpec(_ spec: SpecRow) throws -> Int64
    func updateSpec(id: Int64, _ spec: SpecRow) throws
    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws
    /// Deletes a spec's row and its sections' bodies (the store deletes its
    /// layouts first).
    func deleteSpec(id: Int64) throws
    func deleteSectionBodies(specID: Int64) throws
    /// Inserts or replaces a section's stored body.
    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws

    func insertLayout(_ layout: NewLayoutRow) throws -> Int64
    func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws
    /// Inserts a layout row whose totals are known: what `insertLayout`
    /// then `finishLayout` write, in one statement where the backend can.
    func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64
    func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws
    /// Marks one layout stale, whatever its other columns hold.
    func markStale(layoutID: Int64, updatedAt: Double) throws
    /// Marks layouts stale; returns how many.
    func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) throws -> Int
    /// Deletes a layout and everything stored for it.
    func deleteLayout(id: Int64) throws

    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws
    func deleteSections(layoutID: Int64) throws

    /// Deletes the groups of a layout's slot, or of all its slots.
    func deleteGroups(layoutID: Int64, slot: Int?) throws
}

extension StorageWriter {
    package func insertFinishedLayout(_ layout: NewLayoutRow, _ summary: LayoutTotals, computeSeconds: Double) throws -> Int64 {
        let id = try insertLayout(layout)
        try finishLayout(id: id, summary, computeSeconds: computeSeconds)
        return id
    }
}
