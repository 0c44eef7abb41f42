import Locking
import TesseraLayout
import TesseraStore

/// The reading stage of a batch: `jobs` workers take the specs from their
/// sequence and make each ready (``TesseraStore/LayoutStore/batchItem(_:index:crossExtents:cancellation:firstOfName:)``)
/// on the store's executor, many in one job while the channel has room,
/// and wait for room, or for the writer's verdict, without a thread.
struct BatchReader: Sendable {
    let store: LayoutStore
    let source: SpecSource
    let crossExtents: [Double]
    let policy: BatchFailurePolicy
    let cancellation: CancellationFlag?
    let jobs: Int

    /// Hands every spec to `channel`, until the sequence ends or the batch
    /// stops; a worker's error aborts the channel, so that the others end.
    func run(into channel: BatchChannel<BatchItem>) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, jobs) {
                group.addTask {
                    do {
                        try await work(into: channel)
                    } catch {
                        source.finish()
                        channel.abort()
                        throw error
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// One worker.
    private func work(into channel: BatchChannel<BatchItem>) async throws {
        var pending: BatchItem?
        while true {
            let (burst, left) = try await store.onExecutor { [pending] in try await fill(channel, pending: pending) }
            pending = left
            switch burst {
            case .ended: return
            case .full: if let pending { await channel.waitForRoom(for: pending) }
            case .awaitingVerdict: guard await channel.waitUntilSettled() else { return }
            }
        }
    }

    /// How a job of the reading stage ended.
    private enum Burst: Sendable {
        /// The sequence ended, or the batch stops: nothing more to hand over.
        case ended
        /// The channel has no room for the item made ready last (kept for later).
        case full
        /// With ``BatchFailurePolicy/stop``, this worker reads nothing after
        /// a spec that may fail once written before the writer's verdict on it.
        case awaitingVerdict
    }

    /// Makes specs ready and hands them over while the channel has room,
    /// starting with `pending`, the item the last job could not hand over.
    private func fill(_ channel: BatchChannel<BatchItem>, pending: BatchItem?) async throws -> (Burst, BatchItem?) {
        var pending = pending
        while true {
            let item: BatchItem
            if let held = pending {
                item = held
                pending = nil
            } else {
                try cancellation?.check()
                let started = Clock.threadCPU()
                guard !channel.isEnded, let next = source.next() else { return (.ended, nil) }
                let taking = Clock.threadCPU() - started
                var made = try await store.batchItem(
                    next.spec, index: next.index, crossExtents: crossExtents, cancellation: cancellation, firstOfName: next.firstOfName
                )
                made.cpuSeconds += taking
                item = made
            }
            guard let handed = channel.offer(item) else { return (.full, item) }
            guard handed else { return (.ended, nil) }
            if policy == .stop, item.hasFailed {
                source.finish()
                return (.ended, nil)
            }
            if policy == .stop, item.mayFailWhenWritten { return (.awaitingVerdict, nil) }
        }
    }
}

/// A batch's sequence of specs, taken over by the batch (a value `sending`
/// to it), numbered in its order: its workers take specs under its lock.
package final class SpecSource: Sendable {
    struct State {
        /// The sequence's next spec, nil at its end.
        var next: () -> Spec?
        var index = 0
        var names = Set<String>()
        /// Set when the batch stops: no more specs are taken.
        var finished = false
    }

    let state: Locked<State>

    package init(_ specs: sending some Sequence<Spec>) {
        var iterator = specs.makeIterator()
        state = Locked(State(next: { iterator.next() }))
    }

    /// The sequence's next spec, its index, and whether it is the first of
    /// its name in the batch (in the order of the sequence, whichever
    /// worker takes it); nil at its end.
    func next() -> (spec: Spec, index: Int, firstOfName: Bool)? {
        state.withLock { state in
            guard !state.finished, let spec = state.next() else { return nil }
            defer { state.index += 1 }
            let first = spec.name.map { state.names.insert($0).inserted } ?? true
            return (spec, state.index, first)
        }
    }

    /// No more specs are taken.
    func finish() {
        state.withLock { $0.finished = true }
    }
}
