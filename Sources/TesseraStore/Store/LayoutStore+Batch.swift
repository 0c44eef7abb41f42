import TesseraLayout

/// What a batch does when one of its specs fails.
public enum BatchFailurePolicy: String, Sendable, Hashable, CaseIterable {
    /// Stop at the first spec that fails: every spec before it is stored,
    /// nothing after it is read.
    case stop
    /// Leave the failing spec out (nothing of it is written) and go on.
    case skip
}

/// How far a batch has got, reported after each of its transactions commits.
public struct BatchProgress: Sendable, Hashable {
    /// Specs taken from the sequence and committed (or failed) so far.
    public var specsDone: Int
    /// Specs stored or changed.
    public var saved: Int
    /// Specs already stored with the same content and fresh layouts: not written.
    public var unchanged: Int
    /// Specs that failed, nothing of them written.
    public var failed: Int
    /// Layouts computed or updated.
    public var layoutsComputed: Int

    public init(specsDone: Int = 0, saved: Int = 0, unchanged: Int = 0, failed: Int = 0, layoutsComputed: Int = 0) {
        self.specsDone = specsDone
        self.saved = saved
        self.unchanged = unchanged
        self.failed = failed
        self.layoutsComputed = layoutsComputed
    }
}

/// What a batch precompute did.
public struct BatchReport: Sendable, Hashable {
    /// A spec of the batch that failed; nothing of it was written.
    public struct Failure: Sendable, Hashable {
        /// The spec's position in the sequence, from 0.
        public var index: Int
        /// The spec's name, when it has one.
        public var name: String?
        /// Why it failed: code `invalidSpec` (with the JSON path of the value
        /// at fault) or `invalidArgument` (no name, an extent its axis cannot take).
        public var error: StoreError

        public init(index: Int, name: String?, error: StoreError) {
            self.index = index
            self.name = name
            self.error = error
        }

        public static func == (lhs: Failure, rhs: Failure) -> Bool {
            lhs.index == rhs.index && lhs.name == rhs.name && lhs.error == rhs.error
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(index)
            hasher.combine(name)
            hasher.combine(error.message)
        }
    }

    /// Specs stored or changed.
    public var saved = 0
    /// Specs already stored with the same content and fresh layouts at every
    /// extent asked for: left as they were, without a write.
    public var unchanged = 0
    /// The specs that failed, in order.
    public var failures: [Failure] = []
    /// Layouts computed in full or updated incrementally.
    public var layoutsComputed = 0
    /// Write transactions committed.
    public var transactions = 0
    /// The batch stopped at its failure (``BatchFailurePolicy/stop``) before
    /// the end of the sequence.
    public var stopped = false

    public init() {}

    /// Specs taken from the sequence: saved, unchanged and failed.
    public var specsDone: Int { saved + unchanged + failures.count }

    var progress: BatchProgress {
        BatchProgress(specsDone: specsDone, saved: saved, unchanged: unchanged, failed: failures.count, layoutsComputed: layoutsComputed)
    }
}

/// Saving many specs: many per transaction, each whole or not at all.
extension LayoutStore {
    /// Saves every spec of `specs` under its own name and lays it out at
    /// every extent in `crossExtents` (and at every extent already stored
    /// for it), as `precompute(_:as:crossExtents:progress:)` does for one
    /// spec, but many specs per write transaction: a transaction takes specs
    /// for about 50 ms (at least one, at most 1,000), so the cost of a
    /// commit is shared and other processes' writers wait no longer than that.
    ///
    /// - Each spec is stored whole or not at all: it runs in a savepoint of
    ///   the transaction, and a spec that fails (`invalidSpec`,
    ///   `invalidArgument`: no name, a bad extent, an unreadable items file)
    ///   is rolled back alone and listed in ``BatchReport/failures``. With
    ///   ``BatchFailurePolicy/stop`` the batch then commits the specs before
    ///   it and reads no further; with ``BatchFailurePolicy/skip`` it goes on.
    /// - A spec already stored with the same content and section ids, whose
    ///   layouts are fresh at every extent asked for, is left as it is with
    ///   no write (``BatchReport/unchanged``): running the same batch again
    ///   costs two indexed lookups per spec and the hashing of its content.
    ///   A changed spec is updated incrementally.
    /// - A spec named twice in the batch is saved twice: the later wins.
    /// - Any other failure (busy, disk full, I/O) is thrown: the transactions
    ///   committed before it stay, the one under way is rolled back.
    ///
    /// `progress` hears of every commit; it must not write to the store.
    public func precompute(
        batch specs: some Sequence<Spec>,
        crossExtents: [Double],
        onFailure policy: BatchFailurePolicy = .stop,
        progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) throws -> BatchReport {
        try precompute(batch: specs, crossExtents: crossExtents, onFailure: policy, progress: progress, cancellation: nil)
    }

    /// The batch, cancelled between specs when `cancellation` is set; the
    /// limits of a transaction can be changed for tests.
    package func precompute(
        batch specs: some Sequence<Spec>,
        crossExtents: [Double],
        onFailure policy: BatchFailurePolicy,
        progress: (@Sendable (BatchProgress) -> Void)?,
        cancellation: CancellationFlag?,
        transactionSeconds: Double = 0.05,
        transactionSpecs: Int = 1_000
    ) throws -> BatchReport {
        var report = BatchReport()
        var iterator = specs.makeIterator()
        var index = 0
        var finished = false
        while !finished {
            try cancellation?.check()
            let chunk: (report: BatchReport, cells: Int) = try write { storage in
                let started = Clock.monotonic()
                var chunk = BatchReport()
                var cells = 0
                while chunk.specsDone < max(1, transactionSpecs), chunk.specsDone == 0 || Clock.monotonic() - started < transactionSeconds {
                    try cancellation?.check()
                    guard let spec = iterator.next() else {
                        finished = true
                        break
                    }
                    defer { index += 1 }
                    do {
                        guard let name = spec.name, !name.isEmpty else {
                            throw StoreError(.invalidArgument, "spec \(index) of the batch has no \"name\"")
                        }
                        let outcome = try reportingSpecErrors(name: name) {
                            let prepared = try prepareSave(spec, as: name, crossExtents: crossExtents)
                            return try storage.savepoint {
                                try saveInWrite(prepared, storage: storage, progress: nil, cancellation: cancellation)
                            }
                        }
                        if outcome.unchanged {
                            chunk.unchanged += 1
                        } else {
                            chunk.saved += 1
                            chunk.layoutsComputed += outcome.result.report.layouts.count { $0.changedLayout }
                            cells += outcome.result.layouts.reduce(0) { $0 + $1.cellCount }
                        }
                    } catch let error as StoreError where error.code == .invalidSpec || error.code == .invalidArgument {
                        chunk.failures.append(BatchReport.Failure(index: index, name: spec.name, error: error))
                        if policy == .stop {
                            chunk.stopped = true
                            finished = true
                            break
                        }
                    }
                }
                return (chunk, cells)
            }
            report.merge(chunk.report)
            if chunk.report.specsDone > 0 {
                report.transactions += 1
                progress?(report.progress)
            }
        }
        return report
    }
}

extension LayoutStore {
    /// Saves many specs, many per transaction (see
    /// `precompute(batch:crossExtents:onFailure:progress:)`), on the store's
    /// own threads. Cancelling the task stops the batch before its next spec
    /// (or between chunks of cells) and throws
    /// ``StoreError/Code/cancelled``: the transactions committed before stay,
    /// the one under way is rolled back.
    public func precompute(
        batch specs: some Sequence<Spec> & Sendable,
        crossExtents: [Double],
        onFailure policy: BatchFailurePolicy = .stop,
        progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) async throws -> BatchReport {
        try await writeAsync { flag in
            try self.precompute(batch: specs, crossExtents: crossExtents, onFailure: policy, progress: progress, cancellation: flag)
        }
    }
}

extension BatchReport {
    mutating func merge(_ other: BatchReport) {
        saved += other.saved
        unchanged += other.unchanged
        failures += other.failures
        layoutsComputed += other.layoutsComputed
        stopped = stopped || other.stopped
    }
}

extension UpdateReport.Layout {
    /// Whether the save changed this layout's rows.
    var changedLayout: Bool {
        fullRecompute || shifted + resumed + recomputed + removed > 0
    }
}
