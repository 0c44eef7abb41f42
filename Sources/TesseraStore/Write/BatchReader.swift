import Locking
import TesseraLayout

/// The reading stage of a batch: takes the specs from their sequence in
/// order and makes each ready (``LayoutStore/batchItem(_:index:crossExtents:cancellation:firstOfName:)``)
/// on the store's executor, many in one job while the channel has room,
/// and waits for room, or for the writer's verdict, without a thread.
struct BatchReader: Sendable {
    let store: LayoutStore
    let source: SpecSource
    let crossExtents: [Double]
    let policy: BatchFailurePolicy
    let cancellation: CancellationFlag?

    /// Hands every spec to `channel`, until the sequence ends or the batch stops.
    func run(into channel: BatchChannel<BatchItem>) async throws {
        while true {
            let burst = try await store.onExecutor { try await fill(channel, from: source) }
            switch burst {
            case .ended: return
            case .full: await channel.waitForRoom()
            case .awaitingVerdict: guard await channel.waitUntilSettled() else { return }
            }
        }
    }

    /// How a job of the reading stage ended.
    private enum Burst: Sendable {
        /// The sequence ended, or the batch stops: nothing more to hand over.
        case ended
        /// The channel has no room for the spec made ready last (kept for later).
        case full
        /// With ``BatchFailurePolicy/stop``, nothing after a spec that may
        /// fail once written is read before the writer's verdict on it.
        case awaitingVerdict
    }

    /// Makes specs ready and hands them over while the channel has room.
    private func fill(_ channel: BatchChannel<BatchItem>, from source: SpecSource) async throws -> Burst {
        while true {
            let item: BatchItem
            if let pending = source.state.withLock({ state in defer { state.pending = nil }; return state.pending }) {
                item = pending
            } else {
                try cancellation?.check()
                guard let (spec, index) = source.next() else { return .ended }
                item = try await store.batchItem(spec, index: index, crossExtents: crossExtents, cancellation: cancellation) { name in
                    source.state.withLock { $0.names.insert(name).inserted }
                }
            }
            guard let handed = channel.offer(item) else {
                source.state.withLock { $0.pending = item }
                return .full
            }
            guard handed else { return .ended }
            if policy == .stop, item.hasFailed { return .ended }
            if policy == .stop, item.mayFailWhenWritten { return .awaitingVerdict }
        }
    }
}

/// A batch's sequence of specs, taken over by the batch (a value `sending`
/// to it), with what reading it needs: read by one job at a time.
package final class SpecSource: Sendable {
    struct State {
        /// The sequence's next spec, nil at its end.
        var next: () -> Spec?
        var index = 0
        var names = Set<String>()
        /// Made ready, not handed over yet (the channel was full).
        var pending: BatchItem?
    }

    let state: Locked<State>

    package init(_ specs: sending some Sequence<Spec>) {
        var iterator = specs.makeIterator()
        state = Locked(State(next: { iterator.next() }))
    }

    /// The sequence's next spec and its index, nil at its end.
    func next() -> (Spec, Int)? {
        state.withLock { state in
            guard let spec = state.next() else { return nil }
            defer { state.index += 1 }
            return (spec, state.index)
        }
    }
}
