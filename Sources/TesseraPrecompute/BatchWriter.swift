import Locking
import TesseraLayout
import TesseraStore

/// One spec of a batch, made ready by the reading stage.
struct BatchItem: BatchChannelItem {
    enum State: Sendable {
        /// No name, or invalid: nothing of it is written.
        case failed(StoreError)
        /// Checked and fingerprinted; with its layouts computed when the
        /// store did not hold the spec as it was read.
        case prepared(LayoutStore.PreparedSave, computed: [BufferedComputation]?)
    }

    var index: Int
    var name: String?
    var state: State {
        didSet { bytes = Self.bytes(of: state) }
    }
    /// About what it holds in memory while it waits for the writer.
    private(set) var bytes: Int
    /// The CPU seconds a worker spent on it (``BatchReport/workersCPUSeconds``).
    var cpuSeconds = 0.0

    init(index: Int, name: String?, state: State) {
        self.index = index
        self.name = name
        self.state = state
        bytes = Self.bytes(of: state)
    }

    private static func bytes(of state: State) -> Int {
        guard case .prepared(let prepared, let computed) = state else { return 256 }
        let items = (prepared.spec.knownItemCount ?? 0) * MemoryLayout<Item>.stride
        return 1_024 + items + (computed ?? []).reduce(0) { $0 + $1.rows.bytes }
    }
    /// The store held the spec unchanged when it was read: its write only
    /// confirms that.
    var settledBeforeWrite = false

    var hasFailed: Bool {
        if case .failed = state { true } else { false }
    }

    /// Whether the write may still find the spec invalid: an update of a
    /// stored spec lays out only what changed, in the write.
    var mayFailWhenWritten: Bool {
        guard case .prepared(_, let computed) = state else { return false }
        return computed == nil && !settledBeforeWrite
    }
}

/// The writing stage of a batch: takes the specs from the channel in
/// order and stores them, many per transaction, each in a savepoint.
struct BatchWriter: Sendable {
    let store: LayoutStore
    let channel: BatchChannel<BatchItem>
    let policy: BatchFailurePolicy
    let progress: (@Sendable (BatchProgress) -> Void)?
    let cancellation: CancellationFlag?
    let transactionSeconds: Double
    let transactionSpecs: Int

    /// Stores every spec the reading stage hands over, until it closes the
    /// channel or the batch stops; then stops the channel, whatever ended it.
    func run() async throws -> BatchReport {
        defer { channel.stop() }
        var report = BatchReport()
        while true {
            try cancellation?.check()
            // The first spec of a transaction is waited for before it begins,
            // without a thread: no transaction stays open for a slow reader.
            guard let first = try await channel.next() else { break }
            let started = Clock.monotonic()
            var (chunk, finished) = try await store.onExecutor { try await writeTransaction(startingWith: first) }
            chunk.writingSeconds += Clock.monotonic() - started
            report.merge(chunk)
            if chunk.specsDone > 0 {
                report.transactions += 1
                progress?(report.progress)
            }
            if finished { break }
        }
        return report
    }

    /// One transaction: `first`, then the specs that come within its time
    /// and count; whether the batch ends with it.
    private func writeTransaction(startingWith first: BatchItem) async throws -> (BatchReport, finished: Bool) {
        try await store.write { storage in
            let started = Clock.monotonic()
            var chunk = BatchReport()
            var next = first
            while true {
                try cancellation?.check()
                if try await save(next, storage: storage, into: &chunk) { return (chunk, true) }
                guard chunk.specsDone < max(1, transactionSpecs), Clock.monotonic() - started < transactionSeconds else { return (chunk, false) }
                let waitStarted = Clock.monotonic()
                let taken = try await channel.take(deadline: started + transactionSeconds)
                chunk.writingSeconds -= Clock.monotonic() - waitStarted
                switch taken {
                case .item(let item): next = item
                case .timedOut: return (chunk, false)
                case .finished: return (chunk, true)
                }
            }
        }
    }

    /// Stores one spec in a savepoint, or lists its failure; true when the
    /// batch stops there.
    private func save(_ item: BatchItem, storage: RowTransaction, into chunk: inout BatchReport) async throws -> Bool {
        defer { channel.settle() }
        chunk.workersCPUSeconds += item.cpuSeconds
        do {
            let outcome: LayoutStore.SaveOutcome
            switch item.state {
            case .failed(let error):
                throw error
            case .prepared(let prepared, let computed):
                outcome = try await store.reportingSpecErrors(name: prepared.name) {
                    try await storage.savepoint {
                        // Computed ahead for a spec the store did not hold: still so?
                        if let computed, try await storage.read({ try $0.spec(name: prepared.name)?.id }) == nil {
                            return try await store.saveNew(prepared, computed: computed.map(HandOff.init(ended:)), storage: storage)
                        }
                        return try await store.saveInWrite(prepared, storage: storage, progress: nil, cancellation: cancellation)
                    }
                }
            }
            if outcome.unchanged {
                chunk.unchanged += 1
            } else {
                chunk.saved += 1
                chunk.layoutsComputed += outcome.result.report.layouts.count { $0.changedLayout }
            }
            return false
        } catch let error as StoreError where error.isBatchFailure {
            chunk.failures.append(BatchReport.Failure(index: item.index, name: item.name, error: error))
            guard policy == .stop else { return false }
            chunk.stopped = true
            channel.stop()
            return true
        }
    }
}
