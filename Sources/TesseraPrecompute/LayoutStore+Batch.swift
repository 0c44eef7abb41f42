#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Locking
import TesseraLayout
import TesseraStore

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

/// What a batch save (``TesseraStore/LayoutStore/saveBatch(_:crossExtents:onFailure:jobs:progress:)``) did.
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
    /// Seconds the writer spent writing: in its transactions, less the time
    /// it waited there for the workers. Beside the batch's own time, the
    /// share of it that the one writer bounds.
    public var writingSeconds = 0.0
    /// CPU seconds the workers spent making specs ready (taking each from
    /// the sequence, checking, fingerprinting and laying it out into
    /// memory), by their threads' clocks. The process's CPU time over the
    /// batch less this is the writer's and the store's own: the cost per
    /// spec that more workers do not share.
    public var workersCPUSeconds = 0.0
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
    /// The batch, cancelled between specs when `cancellation` is set; the
    /// limits of a transaction can be changed for tests.
    ///
    /// `jobs` worker tasks read the specs and make each ready (checks,
    /// fingerprint, and for a spec the store does not hold yet, its layouts
    /// computed into memory); a child task stores them in order
    /// (``BatchWriter``). Their blocking work runs on the executor.
    package func saveBatch(
        _ source: SpecSource,
        crossExtents: [Double],
        onFailure policy: BatchFailurePolicy,
        jobs: Int = 1,
        progress: (@Sendable (BatchProgress) -> Void)?,
        cancellation: CancellationFlag?,
        transactionSeconds: Double = 0.05,
        transactionSpecs: Int = 1_000,
        readAheadBytes: Int = LayoutStore.batchReadAheadBytes
    ) async throws -> BatchReport {
        let channel = BatchChannel<BatchItem>(capacity: Self.batchReadAhead + jobs, byteBudget: readAheadBytes)
        let writer = BatchWriter(
            store: self, channel: channel, policy: policy, progress: progress, cancellation: cancellation,
            transactionSeconds: transactionSeconds, transactionSpecs: transactionSpecs
        )
        let reader = BatchReader(store: self, source: source, crossExtents: crossExtents, policy: policy, cancellation: cancellation, jobs: jobs)
        return try await withThrowingTaskGroup(of: BatchReport.self) { group in
            group.addTask { try await writer.run() }
            do {
                try await reader.run(into: channel)
            } catch {
                channel.abort()
                // The writer rolls back the transaction under way, and ends.
                _ = try? await group.next()
                throw error
            }
            channel.close()
            guard let report = try await group.next() else { throw StoreError(.internal, "the batch's writer ended without a result") }
            return report
        }
    }

    /// Specs made ready ahead of the writer, at most (plus one per worker).
    static let batchReadAhead = 16
    /// The bytes that specs made ready hold while they wait for the writer,
    /// at most (beyond it, only the spec the writer takes next comes in).
    package static let batchReadAheadBytes = 64 << 20
    /// The most cells of a spec (items times extents) laid out ahead of its
    /// write; a larger spec is laid out in its write.
    static let batchBufferedCells = 100_000
    /// The workers a batch runs when not told: one fewer than the machine's
    /// cores, at least one. Its writer keeps a core busy (small feeds keep it
    /// busy with one worker), and a worker more than the cores slows it.
    package static var defaultBatchJobs: Int {
        max(1, machineCores - 1)
    }

    /// Makes spec `index` of a batch ready for its write. Failures of the
    /// spec itself (no name, invalid) are returned in the item, to be
    /// reported in order; others are thrown.
    func batchItem(
        _ spec: Spec, index: Int, crossExtents: [Double], cancellation: CancellationFlag?, firstOfName: Bool
    ) async throws -> BatchItem {
        do {
            guard let name = spec.name, !name.isEmpty else {
                throw StoreError(.invalidArgument, "spec \(index) of the batch has no \"name\"")
            }
            // Read on this thread's clock around work that does not suspend.
            var started = Clock.threadCPU()
            let prepared = try reportingSpecErrors(name: name) { try prepareSave(spec, as: name, crossExtents: crossExtents) }
            var item = BatchItem(index: index, name: name, state: .prepared(prepared, computed: nil))
            item.cpuSeconds = Clock.threadCPU() - started
            // A name seen before in the batch may be stored by then: the write decides.
            guard firstOfName else { return item }
            let stored: StoredSpecState = try await readAsync { storage in
                guard try storage.spec(name: name) != nil else { return .absent }
                return try self.unchangedLayouts(prepared, storage: storage) == nil ? .changed : .unchanged
            }
            switch stored {
            case .changed: break
            case .unchanged: item.settledBeforeWrite = true
            case .absent:
                // A large spec is laid out in its write, streamed to the store
                // as always, instead of held in memory while it waits.
                let extents = prepared.crossExtents
                guard let items = prepared.spec.knownItemCount, items <= Self.batchBufferedCells / max(1, extents.count) else { break }
                started = Clock.threadCPU()
                let computed = try extents.map { extent in
                    try computeBuffered(prepared.spec, name: name, crossExtent: extent, progress: nil, cancellation: cancellation)
                }
                item.state = .prepared(prepared, computed: computed)
                item.cpuSeconds += Clock.threadCPU() - started
            }
            return item
        } catch let error as StoreError where error.isBatchFailure {
            // Not stored, so the same whatever the write finds: final.
            return BatchItem(index: index, name: spec.name, state: .failed(error))
        }
    }
}

extension LayoutStore {
    /// Saves every spec of `specs` under its own name and lays it out at
    /// every extent in `crossExtents` (and at every extent already stored
    /// for it), as `save(_:as:crossExtents:progress:)` does for one
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
    /// - Two stages share the work: `jobs` workers (by default one fewer
    ///   than the machine's cores, at least one) read the specs and make each ready (checked,
    ///   fingerprinted and, when the store does not hold them, laid out
    ///   into memory, up to 100,000 cells) while one writer stores them in
    ///   the order of the sequence. The store written is the same whatever
    ///   `jobs` is. At most 16 specs plus one per worker, and 64 MiB, wait
    ///   for the writer. Their blocking work runs on the store's executor,
    ///   so it runs at most as many workers at once as it has threads.
    /// - With ``BatchFailurePolicy/stop`` and more than one worker, the
    ///   workers may have taken a few specs past the one that failed from
    ///   the sequence; none of them is stored.
    /// - Cancelling the task stops the batch before its next spec (or
    ///   between chunks of cells) and throws `StoreError.Code.cancelled`:
    ///   the transactions committed before stay, the one under way is
    ///   rolled back.
    ///
    /// `progress` hears of every commit; it must not write to the store.
    ///
    /// - Throws: `StoreError` with code `invalidArgument` when `jobs` is
    ///   not 1 to 1,024; the others above.
    public func saveBatch(
        _ specs: sending some Sequence<Spec>,
        crossExtents: [Double],
        onFailure policy: BatchFailurePolicy = .stop,
        jobs: Int? = nil,
        progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) async throws -> BatchReport {
        let jobs = try Self.checkedJobs(jobs, fallback: Self.defaultBatchJobs)
        let source = SpecSource(specs)
        return try await gatedWrite { flag in
            try await saveBatch(source, crossExtents: crossExtents, onFailure: policy, jobs: jobs, progress: progress, cancellation: flag)
        }
    }
}

/// What a batch finds stored under a spec's name before its write.
enum StoredSpecState: Sendable {
    case absent, unchanged, changed
}

extension StoreError {
    /// A failure of one spec of a batch, listed in its report: the batch goes
    /// on or stops as its policy says.
    var isBatchFailure: Bool { code == .invalidSpec || code == .invalidArgument }
}

extension BatchReport {
    mutating func merge(_ other: BatchReport) {
        saved += other.saved
        unchanged += other.unchanged
        failures += other.failures
        layoutsComputed += other.layoutsComputed
        writingSeconds += other.writingSeconds
        workersCPUSeconds += other.workersCPUSeconds
        stopped = stopped || other.stopped
    }
}

extension UpdateReport.Layout {
    /// Whether the save changed this layout's rows.
    var changedLayout: Bool {
        fullRecompute || shifted + resumed + recomputed + removed > 0
    }
}

extension Clock {
    /// CPU seconds of the calling thread, for work that stays on it (no
    /// suspension between two readings).
    static func threadCPU() -> Double {
        read(CLOCK_THREAD_CPUTIME_ID)
    }

    /// CPU seconds of every thread of the process so far, on the kernel's
    /// count the thread clocks add up to: what a batch's workers spent beside it.
    package static func processCPU() -> Double {
        read(CLOCK_PROCESS_CPUTIME_ID)
    }
}
