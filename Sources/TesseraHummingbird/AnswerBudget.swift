import Synchronization

/// The elements held by large answers being sent, together
/// (`--max-elements-in-flight`): a client that reads slowly holds its
/// answer's elements until it has read them all, so the answers of many
/// such clients are capped as one; a large answer past the cap answers 503
/// with `Retry-After` instead of waiting for memory.
package final class AnswerBudget: Sendable {
    /// The most elements held at once.
    package let limit: Int
    private let held = Mutex(0)

    package init(limit: Int) {
        self.limit = limit
    }

    /// Elements held now.
    package var inFlight: Int { held.withLock { $0 } }

    /// Holds `count` elements until the lease is gone; nil when that would
    /// pass the limit (one answer alone never does: the per-answer cap is
    /// checked first).
    package func lease(_ count: Int) -> Lease? {
        let granted = held.withLock { held -> Bool in
            guard held == 0 || held + count <= limit else { return false }
            held += count
            return true
        }
        return granted ? Lease(budget: self, count: count) : nil
    }

    /// Elements held for one answer, given back when the answer's body is
    /// written or dropped unwritten (a `HEAD`, a closed connection).
    package final class Lease: Sendable {
        private let budget: AnswerBudget
        private let count: Int

        fileprivate init(budget: AnswerBudget, count: Int) {
            self.budget = budget
            self.count = count
        }

        deinit {
            budget.held.withLock { $0 -= count }
        }
    }
}
