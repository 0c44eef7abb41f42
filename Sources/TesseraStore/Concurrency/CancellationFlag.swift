import Synchronization

/// Set when the task that asked for a write is cancelled; the write checks
/// it between chunks of cells and rolls back.
package final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    package init() {}

    package var isCancelled: Bool { flag.load(ordering: .relaxed) }

    package func cancel() { flag.store(true, ordering: .relaxed) }

    /// Throws `cancelled` when set.
    package func check() throws {
        if isCancelled {
            throw StoreError(.cancelled, "the request was cancelled before it finished; nothing was written")
        }
    }
}
