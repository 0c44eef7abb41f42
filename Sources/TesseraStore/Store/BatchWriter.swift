import Locking
import Foundation
import Synchronization
import TesseraLayout

/// One spec of a batch, made ready on the reading thread.
struct BatchItem: @unchecked Sendable {
    // Unchecked: made by the reading thread, then only read by the writer's.
    enum State {
        /// No name, or invalid: nothing of it is written.
        case failed(StoreError)
        /// Checked and fingerprinted; with its layouts computed when the
        /// store did not hold the spec as it was read.
        case prepared(LayoutStore.PreparedSave, computed: [BufferedComputation]?)
    }

    var index: Int
    var name: String?
    var state: State
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

/// The writer thread of a batch: takes the specs from the channel in
/// order and stores them, many per transaction, each in a savepoint.
struct BatchWriter: Sendable {
    let store: LayoutStore
    let channel: BatchChannel<BatchItem>
    let policy: BatchFailurePolicy
    let progress: (@Sendable (BatchProgress) -> Void)?
    let cancellation: CancellationFlag?
    let transactionSeconds: Double
    let transactionSpecs: Int

    /// The running writer: `wait()` returns its report or throws its error.
    final class Running: Sendable {
        fileprivate let done = DispatchSemaphore(value: 0)
        fileprivate let result = Locked<Result<BatchReport, any Error>?>(nil)

        func wait() throws -> BatchReport {
            done.wait()
            done.signal()
            return try result.withLock { $0 ?? .failure(StoreError(.internal, "the batch's writer ended without a result")) }.get()
        }
    }

    func start() -> Running {
        let running = Running()
        let thread = Thread { [self] in
            let result = Result { try run() }
            // Whatever ended it, the reading thread must not wait for it any longer.
            channel.stop()
            running.result.withLock { $0 = result }
            running.done.signal()
        }
        thread.name = "tessera batch writes"
        thread.start()
        return running
    }

    private func run() throws -> BatchReport {
        var report = BatchReport()
        var finished = false
        while !finished {
            try cancellation?.check()
            // The first spec of a transaction is waited for before it begins:
            // no transaction stays open waiting for a slow reader.
            guard case .item(let first) = try channel.take(deadline: nil) else { break }
            let chunk: BatchReport = try store.write { storage in
                let started = Clock.monotonic()
                var chunk = BatchReport()
                var next = first
                while true {
                    try cancellation?.check()
                    if try save(next, storage: storage, into: &chunk) {
                        finished = true
                        break
                    }
                    guard chunk.specsDone < max(1, transactionSpecs), Clock.monotonic() - started < transactionSeconds else { break }
                    let taken = try channel.take(deadline: started + transactionSeconds)
                    guard case .item(let item) = taken else {
                        if case .finished = taken { finished = true }
                        break
                    }
                    next = item
                }
                return chunk
            }
            report.merge(chunk)
            if chunk.specsDone > 0 {
                report.transactions += 1
                progress?(report.progress)
            }
        }
        return report
    }

    /// Stores one spec in a savepoint, or lists its failure; true when the
    /// batch stops there.
    private func save(_ item: BatchItem, storage: any StorageWriter, into chunk: inout BatchReport) throws -> Bool {
        defer { channel.settle() }
        do {
            let outcome: LayoutStore.SaveOutcome
            switch item.state {
            case .failed(let error):
                throw error
            case .prepared(let prepared, let computed):
                outcome = try store.reportingSpecErrors(name: prepared.name) {
                    try storage.savepoint {
                        // Computed ahead for a spec the store did not hold: still so?
                        if let computed, try storage.specID(name: prepared.name) == nil {
                            return try store.saveNew(prepared, computed: computed, storage: storage)
                        }
                        return try store.saveInWrite(prepared, storage: storage, progress: nil, cancellation: cancellation)
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
