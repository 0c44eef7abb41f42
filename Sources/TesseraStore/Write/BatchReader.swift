import Locking
import TesseraLayout

/// The reading stage of a batch: takes the specs from their sequence in
/// order and makes each ready (``LayoutStore/batchItem(_:index:crossExtents:names:cancellation:)``)
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
            let burst = try await store.executor.run { try fill(channel, from: source) }
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
    private func fill(_ channel: BatchChannel<BatchItem>, from source: SpecSource) throws -> Burst {
        try source.state.withLock { state in
            while true {
                let item: BatchItem
                if let pending = state.pending {
                    item = pending
                } else {
                    try cancellation?.check()
                    guard let spec = state.next() else { return .ended }
                    item = try store.batchItem(spec, index: state.index, crossExtents: crossExtents, names: &state.names, cancellation: cancellation)
                    state.index += 1
                }
                guard let handed = channel.offer(item) else {
                    state.pending = item
                    return .full
                }
                state.pending = nil
                guard handed else { return .ended }
                if policy == .stop, item.hasFailed { return .ended }
                if policy == .stop, item.mayFailWhenWritten { return .awaitingVerdict }
            }
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
}
