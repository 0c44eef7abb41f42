import Locking
import TesseraStore

/// The hand-off between a batch's two stages: the reading stage's workers
/// make specs ready (fingerprint, layouts computed into memory) in any
/// order, the writing stage takes them in the order of their indexes and
/// stores them. At most `capacity` items and `byteBudget` bytes wait between
/// the two, except the item the writer takes next, which is always let in:
/// the worker holding it never waits for room that only it can make.
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
final class BatchChannel<Item: BatchChannelItem>: Sendable {
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
        /// Items let in and not taken yet, by index.
        var items: [Int: Item] = [:]
        var bytes = 0
        /// The index the writer takes next.
        var next = 0
        var put = 0
        var settled = 0
        var closed = false
        var stopped = false
        var aborted = false
        /// Stages suspended until something changes: the workers of the
        /// reading stage, and the writer.
        var readers: [CheckedContinuation<Void, Never>] = []
        var writer: CheckedContinuation<Void, Never>?
        /// Counts the writer's waits: a deadline's timer wakes only the wait it was set for.
        var writerWaits = 0

        /// Whether `index`, of `bytes`, may come in now.
        func hasRoom(index: Int, bytes: Int, capacity: Int, byteBudget: Int) -> Bool {
            index == next || (items.count < capacity && self.bytes + bytes <= byteBudget)
        }

        /// The next item, `.finished`, or nil when there is none yet.
        mutating func takeNow() throws -> Taken? {
            if aborted { throw Aborted() }
            if let item = items.removeValue(forKey: next) {
                next += 1
                bytes -= item.bytes
                return .item(item)
            }
            guard closed else { return nil }
            // Closed with a gap: a worker dropped an item it had taken.
            guard items.isEmpty else { throw Aborted() }
            return .finished
        }

        var hasNext: Bool { items[next] != nil }
    }

    private let capacity: Int
    private let byteBudget: Int
    private let state = Locked(State())

    init(capacity: Int, byteBudget: Int = .max) {
        self.capacity = max(1, capacity)
        self.byteBudget = byteBudget
    }

    // MARK: The reading stage

    /// Hands `item` to the writer when there is room, without waiting;
    /// nil when there is none (the item is handed back), false once the
    /// writer stopped or the reading stage aborted (the item dropped).
    func offer(_ item: Item) -> Bool? {
        change { state in
            guard !state.stopped, !state.aborted else { return false }
            guard state.hasRoom(index: item.index, bytes: item.bytes, capacity: capacity, byteBudget: byteBudget) else { return nil }
            state.items[item.index] = item
            state.bytes += item.bytes
            state.put += 1
            return true
        }
    }

    /// Waits until there is room for `item` or the batch ends.
    func waitForRoom(for item: Item) async {
        await waitAsReader { state in
            state.stopped || state.aborted || state.hasRoom(index: item.index, bytes: item.bytes, capacity: capacity, byteBudget: byteBudget)
        }
    }

    /// Waits until the writer has settled every item sent (stored it or
    /// failed it); false when the batch ended meanwhile.
    func waitUntilSettled() async -> Bool {
        await waitAsReader { $0.stopped || $0.aborted || $0.settled >= $0.put }
        return !isEnded
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
    /// `deadline` (`Clock.monotonic()` seconds).
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

    /// The writer stopped or the reading stage aborted: nothing more is let in.
    var isEnded: Bool {
        state.withLock { $0.stopped || $0.aborted }
    }

    // MARK: Waking

    /// Changes the state, then resumes the suspended stages.
    private func change<T>(_ body: (inout State) throws -> T) rethrows -> T {
        let (result, readers, writer) = try state.withLock { state in
            let result = try body(&state)
            defer {
                state.readers = []
                state.writer = nil
            }
            return (result, state.readers, state.writer)
        }
        for reader in readers { reader.resume() }
        writer?.resume()
        return result
    }

    /// Suspends a worker of the reading stage until `ready` holds (checked again after every change).
    private func waitAsReader(until ready: (State) -> Bool) async {
        while !state.withLock({ ready($0) }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = state.withLock { state in
                    guard !ready(state) else { return false }
                    state.readers.append(continuation)
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
                guard !(state.aborted || state.closed || state.hasNext) else { return nil }
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

/// What a ``BatchChannel`` carries: numbered from 0 in the order the writer
/// takes them, with the bytes each holds while it waits.
protocol BatchChannelItem: Sendable {
    var index: Int { get }
    var bytes: Int { get }
}
