import Locking
import NIOCore
import PostgresNIO
import TesseraLayout
import TesseraStore

/// One write transaction on a writer session, for ``LayoutStore``: no
/// thread waits for the server. A statement whose answer the store needs
/// (a read, an insert's id) is awaited: the session's synchronous method
/// runs against the answers fetched so far and is run again once the one
/// it lacked is fetched (`answering`). A statement whose answer it does
/// not need (an update, a delete, the rows of cell groups and sections in
/// batches) is sent without waiting (`pipeline`): the server runs the
/// session's statements in order, so later ones see it, and a failure is
/// thrown by the next awaited statement or by the commit.
final class PostgresWrite: WriteTransaction, SpecRows, LayoutRows, CellRows {
    let session: PostgresSession

    init(_ session: PostgresSession) {
        self.session = session
    }

    func savepoint<T>(_ body: () async throws -> T) async throws -> T {
        session.savepointDepth += 1
        defer { session.savepointDepth -= 1 }
        let name = "tessera_\(session.savepointDepth)"
        try session.pipeline("SAVEPOINT \(name)")
        do {
            let result = try await body()
            // A failure of the rows it sent is the savepoint's own.
            try session.flushPending()
            try await session.drainPipeline()
            try session.pipeline("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            // Rows of the savepoint not sent yet are dropped with it.
            session.pending = PendingRows()
            try? await session.drainPipeline()
            try await session.run("ROLLBACK TO SAVEPOINT \(name)")
            throw error
        }
    }

    func read<T>(_ body: (any ReadSnapshot) throws -> T) async throws -> T {
        try await session.answering { try body($0) }
    }

    // MARK: Specs

    func insertSpec(_ spec: SpecRow) async throws -> Int64 { try await session.answering { try $0.insertSpec(spec) } }
    func updateSpec(id: Int64, _ spec: SpecRow) throws { try session.updateSpec(id: id, spec) }
    func touchSpec(id: Int64, contentHash: String, updatedAt: Double) throws {
        try session.touchSpec(id: id, contentHash: contentHash, updatedAt: updatedAt)
    }
    func deleteSpec(id: Int64) throws { try session.deleteSpec(id: id) }
    func clearNameConflict(name: String) throws { try session.clearNameConflict(name: name) }
    func deleteSectionBodies(specID: Int64) throws { try session.deleteSectionBodies(specID: specID) }
    func writeSection(specID: Int64, index: Int, identity: String, contentHash: String, body: String) throws {
        try session.writeSection(specID: specID, index: index, identity: identity, contentHash: contentHash, body: body)
    }
    func deleteItemRuns(specID: Int64, sections: [Int]) throws {
        try session.deleteItemRuns(specID: specID, sections: sections)
    }
    func appendItemRun(specID: Int64, _ run: ItemRun, contentHash: String) throws {
        try session.appendItemRun(specID: specID, run, contentHash: contentHash)
    }
    /// Keeps none: an append reads every section's identity, each verified
    /// (a round trip, not a row per statement, on this backend).
    func writeSpecHashPrefix(specID: Int64, _ prefix: SpecHashPrefix) {}

    // MARK: Layouts

    func insertLayout(_ layout: NewLayoutRow) async throws -> Int64 { try await session.answering { try $0.insertLayout(layout) } }
    func finishLayout(id: Int64, _ summary: LayoutTotals, computeSeconds: Double) throws {
        try session.finishLayout(id: id, summary, computeSeconds: computeSeconds)
    }
    func updateLayout(id: Int64, _ summary: LayoutTotals, specHash: String, updatedAt: Double) throws {
        try session.updateLayout(id: id, summary, specHash: specHash, updatedAt: updatedAt)
    }
    func markStale(layoutID: Int64, updatedAt: Double) throws { try session.markStale(layoutID: layoutID, updatedAt: updatedAt) }
    func invalidate(specID: Int64, crossExtent: Double?, updatedAt: Double) async throws -> Int {
        try await session.answering { try $0.invalidate(specID: specID, crossExtent: crossExtent, updatedAt: updatedAt) }
    }
    func deleteLayout(id: Int64) throws { try session.deleteLayout(id: id) }
    func writeDirectorySummary(layoutID: Int64, _ summary: [UInt8]?) throws {
        try session.writeDirectorySummary(layoutID: layoutID, summary)
    }

    // MARK: Sections and cell groups

    func writeGroup(layoutID: Int64, slot: Int, firstItem: Int, frames: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach) throws -> Int64? {
        // Sent with others in a pipelined batch: the server gives the id later.
        try session.writeGroup(layoutID: layoutID, slot: slot, firstItem: firstItem, frames: frames, bounds: bounds, reach: reach)
        return nil
    }
    func writeSection(layoutID: Int64, _ section: SectionRecord, placerState: [UInt8]?) throws {
        try session.writeSection(layoutID: layoutID, section, placerState: placerState)
    }
    func moveSection(layoutID: Int64, index: Int, start: Double, end: Double) throws {
        try session.moveSection(layoutID: layoutID, index: index, start: start, end: end)
    }
    func deleteSections(layoutID: Int64) throws { try session.deleteSections(layoutID: layoutID) }
    func deleteGroups(layoutID: Int64, slot: Int?) throws { try session.deleteGroups(layoutID: layoutID, slot: slot) }
}

/// The first failure among the statements a write sent without waiting,
/// recorded on the event loop when it answers.
final class PipelineFailure: Sendable {
    private let first = Locked<StoreError?>(nil)

    func record(_ error: StoreError) {
        first.withLock { if $0 == nil { $0 = error } }
    }

    /// The failure, forgotten.
    func take() -> StoreError? {
        first.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }
}

extension PostgresSession {
    /// Runs `body`, one of the session's synchronous statements, until it
    /// has the answers it asks for: each it lacks is fetched without
    /// holding a thread, then `body` runs again (see `ReplayLog`). What it
    /// sends without waiting (rows pending, an advisory lock) goes once.
    func answering<T>(_ body: (PostgresSession) throws -> T) async throws -> T {
        let log = ReplayLog()
        replay = log
        defer { replay = nil }
        while true {
            log.startRun()
            var failure: (any Error)?
            do {
                let value = try body(self)
                if log.wanted == nil { return value }
            } catch {
                failure = error
            }
            if log.wanted == nil, let failure { throw failure }
            do {
                try await log.fetchWanted(on: self)
            } catch {
                // An earlier statement sent without waiting may have failed
                // first (the server then refuses the rest): that is the cause.
                try await drainPipeline()
                throw error
            }
        }
    }

    /// Sends one statement of a write without waiting for its answer, after
    /// the rows pending: a failure is thrown by `drainPipeline()`.
    func pipeline(_ sql: String, _ binds: PostgresBindings = PostgresBindings()) throws {
        try flushPending()
        sendPipelined(sql, binds)
    }

    func sendPipelined(_ sql: String, _ binds: PostgresBindings) {
        statementsSent.add(1, ordering: .relaxed)
        let future = connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger)
        let (failures, location) = (pipelineFailure, location)
        future.whenFailure { error in failures.record(StoreError(postgres: error, location: location, connecting: false)) }
        lastPipelined = future
    }

    /// Waits, without a thread, until every statement sent without waiting
    /// has answered (the last one: the server answers in order), and throws
    /// the first that failed.
    func drainPipeline() async throws {
        if let last = lastPipelined {
            lastPipelined = nil
            _ = try? await last.get()
        }
        if let failure = pipelineFailure.take() { throw failure }
    }
}
