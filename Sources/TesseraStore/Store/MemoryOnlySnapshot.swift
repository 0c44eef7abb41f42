import TesseraLayout

/// Thrown by a query answered from memory alone (see
/// `LayoutStore.answerFromMemory`) where it needs what only a read of
/// storage gives: the query then runs as a read.
struct AnswerNeedsStorage: Error {}

/// The snapshot of a query answered from memory alone: every row it is
/// asked for throws ``AnswerNeedsStorage``, so that a query that needs more
/// than the caches hold falls back to a read.
final class MemoryOnlySnapshot: ReadSnapshot, SpecReads, LayoutReads, SectionReads, CellGroupReads, Sendable {
    static let shared = MemoryOnlySnapshot()

    func damagedRows() throws -> [DamagedRow] { throw AnswerNeedsStorage() }

    func specID(name: String) throws -> Int64? { throw AnswerNeedsStorage() }
    func specRecord(name: String) throws -> SpecRecord? { throw AnswerNeedsStorage() }
    func specSummaries() throws -> [StoredSpec] { throw AnswerNeedsStorage() }
    func nameConflicts() throws -> [String] { throw AnswerNeedsStorage() }
    func specSummaries(after: String?, limit: Int) throws -> [StoredSpec] { throw AnswerNeedsStorage() }
    func specSummary(name: String) throws -> StoredSpec? { throw AnswerNeedsStorage() }
    func sectionBodies(specID: Int64) throws -> [String] { throw AnswerNeedsStorage() }
    func sectionBody(specID: Int64, index: Int) throws -> String? { throw AnswerNeedsStorage() }
    func sectionIdentities(specID: Int64) throws -> [SectionIdentity] { throw AnswerNeedsStorage() }
    func itemRuns(specID: Int64, section: Int?) throws -> [ItemRun] { throw AnswerNeedsStorage() }
    func lastItemRun(specID: Int64, section: Int) throws -> ItemRun? { throw AnswerNeedsStorage() }

    func freshLayout(name: String, crossExtent: Double) throws -> LayoutRecord? { throw AnswerNeedsStorage() }
    func layoutRecord(name: String, crossExtent: Double, engineVersion: Int) throws -> LayoutRecord? { throw AnswerNeedsStorage() }
    func layoutRecord(id: Int64, engineVersion: Int) throws -> LayoutRecord? { throw AnswerNeedsStorage() }
    func layoutRecords(specID: Int64?, engineVersion: Int) throws -> [LayoutRecord] { throw AnswerNeedsStorage() }
    func layoutRecords(namesAfter after: String?, through last: String, engineVersion: Int) throws -> [LayoutRecord] {
        throw AnswerNeedsStorage()
    }
    func layoutID(specID: Int64, crossExtent: Double) throws -> Int64? { throw AnswerNeedsStorage() }

    func sections(layoutID: Int64) throws -> [SectionRecord] { throw AnswerNeedsStorage() }
    func forEachSection(layoutID: Int64, fromTheOneBeforeEndingAtOrAfter low: Double, _ body: (SectionRecord) throws -> Bool) throws {
        throw AnswerNeedsStorage()
    }
    func section(layoutID: Int64, index: Int) throws -> SectionRecord? { throw AnswerNeedsStorage() }
    func placerState(layoutID: Int64, slot: Int) throws -> [UInt8]? { throw AnswerNeedsStorage() }
    func placerStates(layoutID: Int64) throws -> [Int: [UInt8]] { throw AnswerNeedsStorage() }

    func forEachGroup(layoutID: Int64, _ body: (GroupRecord) throws -> Void) throws { throw AnswerNeedsStorage() }
    func visitFrames(_ groups: [FramesKey], _ body: (Int, UnsafeRawBufferPointer) -> Void) throws { throw AnswerNeedsStorage() }
    func visitStoredFrames(groupID: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws { throw AnswerNeedsStorage() }
    func withFrames<R>(layoutID: Int64, slot: Int, firstItem: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        throw AnswerNeedsStorage()
    }
    func indexedGroupRange(layoutID: Int64, slot: Int, bounds: QueryBounds) throws -> ClosedRange<Int>? { throw AnswerNeedsStorage() }
    func groups(
        layoutID: Int64, slot: Int, firstItems: ClosedRange<Int>, alsoFirstItem: Int?, framesOf: ClosedRange<Int>?
    ) throws -> [GroupRecord] {
        throw AnswerNeedsStorage()
    }
    func scrollSpan(layoutID: Int64, slot: Int) throws -> ClosedRange<Double>? { throw AnswerNeedsStorage() }
}
