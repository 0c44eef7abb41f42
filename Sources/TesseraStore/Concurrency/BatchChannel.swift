import Locking

/// The hand-off between a batch's two stages: the reading stage makes specs
/// ready (fingerprint, layouts computed into memory), the writing stage
/// takes them in order and stores them. At most `capacity` specs wait
/// between the two.
///
/// Both stages are tasks: they wait for each other without holding a
/// thread. The writer, inside a transaction it keeps open for more specs,
/// waits with a deadline (``take(deadline:)``): a bounded wait, so a
/// reading stage that waits for a thread cannot hold the transaction open
/// for longer than the deadline.
///
/// Either side may end the batch early: the writer stops (a failure with
/// ``BatchFailurePolicy/stop``, an error), the reader aborts (an error,
/// a cancellation: the writer then rolls back the transaction under way).
final class BatchChannel<Item: Sendable>: Sendable {
    /// What the writer gets when it asks for the next item.
    enum Taken {
        case item(Item)
        /// The deadline passed first: commit, then ask again.
        case timedOut
        /// The reader closed the channel and every item was taken.
        case finished
    }

    /// Thrown to the writer when the reader aborted.
    struct Aborted: Error {}

    private struct State {
        var items: [Item] = []
        var head = 0
        var put = 0
        var settled = 0
        var closed = false
        var stopped = false
        var aborted = false
        /// A stage suspended until something changes (at most one each).
        var reader: CheckedContinuation<Void, Never>?
        var writer: CheckedContinuation<Void, Never>?
        /// Counts the writer's waits: a deadline's timer wakes only the wait it was set for.
        var writerWaits = 0

        var waiting: Int { items.count - head }

        /// The next item, `.finished`, or nil when there is none yet.
        mutating func takeNow() throws -> Taken? {
            if aborted { throw Aborted() }
            if head < items.count {
                let item = items[head]
                head += 1
                if head == items.count {
                    items.removeAll(keepingCapacity: true)
                    head = 0
                }
                return .item(item)
            }
            return closed ? .finished : nil
        }
    }

    private let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    // MARK: The reading stage

    /// Hands `item` to the writer when there is room, without waiting;
    /// nil when there is none (the item is handed back), false once the
    /// writer stopped (the item dropped).
    func offer(_ item: Item) -> Bool? {
        change { state in
            guard !state.stopped else { return false }
            guard state.waiting < capacity else { return nil }
            state.items.append(item)
            state.put += 1
            return true
        }
    }

    /// Waits until there is room for an item or the writer stopped.
    func waitForRoom() async {
        await waitAsReader { $0.stopped || $0.waiting < capacity }
    }

    /// Waits until the writer has settled every item sent (stored it or
    /// failed it); false when it stopped meanwhile.
    func waitUntilSettled() async -> Bool {
        await waitAsReader { $0.stopped || $0.settled >= $0.put }
        return !isStopped
    }

    /// No more items: the writer finishes once it has taken those sent.
    func close() {
        change { $0.closed = true }
    }

    /// The reader gives up: the writer's next `take` throws ``Aborted``.
    func abort() {
        change { $0.aborted = true }
    }

    // MARK: The writing stage

    /// The next item, waiting for one without holding a thread; nil when the
    /// reader closed the channel and every item was taken.
    func next() async throws -> Item? {
        guard case .item(let item) = try await take(deadline: .infinity) else { return nil }
        return item
    }

    /// The next item, waiting for one without holding a thread until
    /// `deadline` (``Clock/monotonic()`` seconds).
    func take(deadline: Double) async throws -> Taken {
        while true {
            if let taken = try change({ try $0.takeNow() }) { return taken }
            let remaining = deadline - Clock.monotonic()
            if remaining <= 0 { return .timedOut }
            await suspendWriter(seconds: remaining)
        }
    }

    /// The writer is done with one item.
    func settle() {
        change { $0.settled += 1 }
    }

    /// The writer takes no more items: the reader's next `offer` returns false.
    func stop() {
        change { $0.stopped = true }
    }

    var isStopped: Bool {
        state.withLock { $0.stopped }
    }

    // MARK: Waking

    /// Changes the state, then resumes the suspended stages.
    private func change<T>(_ body: (inout State) throws -> T) rethrows -> T {
        let (result, reader, writer) = try state.withLock { state in
            let result = try body(&state)
            defer {
                state.reader = nil
                state.writer = nil
            }
            return (result, state.reader, state.writer)
        }
        reader?.resume()
        writer?.resume()
        return result
    }

    /// Suspends the reader until `ready` holds (checked again after every change).
    private func waitAsReader(until ready: (State) -> Bool) async {
        while !state.withLock({ ready($0) }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = state.withLock { state in
                    guard !ready(state) else { return false }
                    state.reader = continuation
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
    }

    /// Suspends the writer until the next change, or for `seconds` at most
    /// (a timer task that sleeps, cancelled when a change comes first).
    private func suspendWriter(seconds: Double) async {
        var timer: Task<Void, Never>?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { state -> Int? in
                guard !(state.aborted || state.closed || state.waiting > 0) else { return nil }
                state.writerWaits += 1
                state.writer = continuation
                return state.writerWaits
            }
            guard let wait else { return continuation.resume() }
            if seconds.isFinite {
                timer = Task { [self] in
                    guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
                    let expired = state.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard state.writerWaits == wait, let writer = state.writer else { return nil }
                        state.writer = nil
                        return writer
                    }
                    expired?.resume()
                }
            }
        }
        timer?.cancel()
    }
}
