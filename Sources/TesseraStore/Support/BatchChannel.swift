import Foundation
import Locking

/// The hand-off between a batch's two stages: the reading stage makes specs
/// ready (fingerprint, layouts computed into memory), the writing stage
/// takes them in order and stores them. At most `capacity` specs wait
/// between the two.
///
/// Both stages are tasks: they wait for each other without holding a
/// thread. Only the writer, inside a transaction it keeps open for more
/// specs, waits with a deadline on its thread (``take(deadline:)``): a
/// bounded wait, so a reading stage that waits for a thread cannot hold it
/// up for longer than the deadline.
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
    /// Wakes the writer's wait with a deadline (see ``take(deadline:)``).
    private let condition = NSCondition()

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
        await wait(asReader: true) { $0.stopped || $0.waiting < capacity }
    }

    /// Waits until the writer has settled every item sent (stored it or
    /// failed it); false when it stopped meanwhile.
    func waitUntilSettled() async -> Bool {
        await wait(asReader: true) { $0.stopped || $0.settled >= $0.put }
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
        while true {
            let taken = try change { try $0.takeNow() }
            switch taken {
            case .item(let item)?: return item
            case .finished?, .timedOut?: return nil
            case nil: await wait(asReader: false) { $0.aborted || $0.closed || $0.waiting > 0 }
            }
        }
    }

    /// The next item, waiting for one on this thread until `deadline`
    /// (``Clock/monotonic()`` seconds).
    func take(deadline: Double) throws -> Taken {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let taken = try wakingStages({ try $0.takeNow() }) { return taken }
            let remaining = deadline - Clock.monotonic()
            if remaining <= 0 { return .timedOut }
            // A change made after the check above waits for this lock, so it
            // wakes this wait: none is missed.
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
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

    /// Changes the state, then wakes whatever waits for a change: the
    /// suspended stages, and the writer's wait with a deadline.
    private func change<T>(_ body: (inout State) throws -> T) rethrows -> T {
        let result = try wakingStages(body)
        condition.lock()
        condition.broadcast()
        condition.unlock()
        return result
    }

    /// Changes the state, then resumes the suspended stages (the writer's
    /// wait with a deadline, which makes this change itself, needs no wake).
    private func wakingStages<T>(_ body: (inout State) throws -> T) rethrows -> T {
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

    /// Suspends until `ready` holds (checked again after every change).
    private func wait(asReader: Bool, until ready: (State) -> Bool) async {
        while !state.withLock({ ready($0) }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let parked = state.withLock { state in
                    guard !ready(state) else { return false }
                    if asReader { state.reader = continuation } else { state.writer = continuation }
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
    }
}
