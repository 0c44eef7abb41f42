import Foundation

/// The hand-off between a batch's two threads: the caller's thread reads
/// specs and makes each ready (fingerprint, layouts computed into memory),
/// the batch's writer thread takes them in order and stores them. At most
/// `capacity` specs wait between the two.
///
/// Either side may end the batch early: the writer stops (a failure with
/// ``BatchFailurePolicy/stop``, an error), the reader aborts (an error,
/// a cancellation: the writer then rolls back the transaction under way).
final class BatchChannel<Item>: @unchecked Sendable {
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

    private let condition = NSCondition()
    private let capacity: Int
    // Guarded by `condition`:
    private var items: [Item] = []
    private var head = 0
    private var put = 0
    private var settled = 0
    private var closed = false
    private var stopped = false
    private var aborted = false

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Hands `item` to the writer, waiting while `capacity` items wait;
    /// false (the item dropped) once the writer stopped.
    func send(_ item: Item) -> Bool {
        locked {
            while items.count - head >= capacity, !stopped { condition.wait() }
            guard !stopped else { return false }
            items.append(item)
            put += 1
            return true
        }
    }

    /// Waits until the writer has settled every item sent (stored it or
    /// failed it); false when it stopped meanwhile.
    func waitUntilSettled() -> Bool {
        locked {
            while settled < put, !stopped { condition.wait() }
            return !stopped
        }
    }

    /// No more items: the writer finishes once it has taken those sent.
    func close() {
        locked { closed = true }
    }

    /// The reader gives up: the writer's next `take` throws ``Aborted``.
    func abort() {
        locked { aborted = true }
    }

    /// The next item, waiting for one until `deadline` (``Clock/monotonic()``
    /// seconds; nil: no limit).
    func take(deadline: Double?) throws -> Taken {
        try locked {
            while true {
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
                if closed { return .finished }
                guard let deadline else {
                    condition.wait()
                    continue
                }
                let remaining = deadline - Clock.monotonic()
                if remaining <= 0 { return .timedOut }
                _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
            }
        }
    }

    /// The writer is done with one item.
    func settle() {
        locked { settled += 1 }
    }

    /// The writer takes no more items: the reader's next `send` returns false.
    func stop() {
        locked { stopped = true }
    }

    var isStopped: Bool {
        locked { stopped }
    }
}
