import TesseraLayout

/// The spec rows of a snapshot: each spec's row and its sections' stored bodies.
package protocol SpecReads: AnyObject {
    func specID(name: String) throws -> Int64?
    func specRecord(name: String) throws -> SpecRecord?
    /// The names (in NFC) under whose canonically equivalent spellings the
    /// store holds more than one spec, as a store written before names were
    /// normalized may: empty in every store written since.
    func nameConflicts() throws -> [String]
    /// At most `limit` stored specs named after `after` (from the first
    /// when nil), by name: the byte order of their UTF-8, as indexes give it.
    func specSummaries(after: String?, limit: Int) throws -> [StoredSpec]
    func specSummary(name: String) throws -> StoredSpec?
    /// The stored bodies of a spec's sections, in order.
    func sectionBodies(specID: Int64) throws -> [String]
    func sectionBody(specID: Int64, index: Int) throws -> String?
    func sectionIdentities(specID: Int64) throws -> [SectionIdentity]
    /// One section's identity and hash, verified; nil when there is no such section.
    func sectionIdentity(specID: Int64, index: Int) throws -> SectionIdentity?
    /// What the spec's content hash goes on from (see ``SpecHashPrefix``),
    /// verified; nil when there is none (or the backend keeps none).
    func specHashPrefix(specID: Int64) throws -> SpecHashPrefix?
    /// The item runs appended to a spec's section (or to all its
    /// sections), each verified, by section and first item.
    func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun]
    /// The last item run appended to a section, verified.
    func lastItemRun(specID: Int64, section: Int) throws -> ItemRun?
}

/// The layout rows of a snapshot.
package protocol LayoutReads: AnyObject {
    /// The layout of a spec at an extent, fresh or not, with what a reader needs.
    func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord?
    func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord?
    /// Every layout of one spec (or of all specs), by name and extent.
    func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord]
    /// Every layout of the specs named after `after` (from the first when
    /// nil) up to `last` included, by name (UTF-8 byte order) and extent.
    func layoutRecords(namesAfter after: String?, through last: String, engineVersion: Int) throws -> [LayoutRecord]
    func layoutID(specID: Int64, crossExtent: Double) throws -> Int64?
}

extension SpecReads {
    /// Every stored spec, by name.
    package func specSummaries() throws -> [StoredSpec] {
        try specSummaries(after: nil, limit: .max)
    }
}

extension LayoutReads {
    /// The layout of a spec at an extent when it may be served (computed
    /// from the spec's current content by this engine version), else nil,
    /// from the rows: what the store's ``ResolvedNames`` fall back on.
    package func freshLayoutRecord(name: String, crossExtent: Double) throws -> LayoutRecord? {
        guard let record = try layoutRecord(name: name, crossExtent: crossExtent, engineVersion: LayoutEngine.version),
              record.layout.state == .fresh
        else { return nil }
        return record
    }
}

/// The section rows of a snapshot's layouts: geometry, slot, placer state.
package protocol SectionReads: AnyObject {
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
}

/// The cell groups of a snapshot's layouts: directory rows, frame blobs,
/// the spatial index.
package protocol CellGroupReads: AnyObject {
    /// Every group of a layout, by slot and first item.
    func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws
    /// Runs `body` on the frame blob of each group of `groups` that has
    /// one, in order, with its index in `groups`: the hot path of every
    /// query. A key's checksum, the frames' checksum as the group's row in
    /// this snapshot gives it, lets a backend answer from bytes it cached
    /// under the same key (the same bytes), and a backend behind a network
    /// fetches the others in one request. Not generic, not throwing inside.
    func visitFrames(_ groups: [FramesKey], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws
    /// Runs `body` on the frame blob stored for a group now, if there is
    /// one, from no cache: for checks.
    func visitStoredFrames(groupID: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws
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
}
