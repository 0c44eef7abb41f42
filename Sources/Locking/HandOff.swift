/// Values one thread hands to one task in order, then an end (or an
/// error): the task takes them as they come, waiting without holding a
/// thread. Unbounded: whoever sends bounds what it sends.
package final class HandOff<Value: Sendable, End: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var end: Result<End, any Error>?
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    package init() {}

    /// A hand-off whose end was sent, with no values before it.
    package init(ended end: End) {
        state.withLock { $0.end = .success(end) }
    }

    /// The end, once it was sent (and is not an error).
    package var finished: End? {
        state.withLock { try? $0.end?.get() }
    }

    package func send(_ value: Value) {
        changing { $0.values.append(value) }
    }

    /// Sends the end: nothing is sent after it.
    package func finish(_ end: Result<End, any Error>) {
        changing { $0.end = end }
    }

    /// Applies `change`, then wakes the task waiting for one, outside the lock.
    private func changing(_ change: (inout State) -> Void) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            change(&state)
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Sends the end `body` returns, or its error.
    package func finish(_ body: () async throws -> End) async {
        do {
            finish(.success(try await body()))
        } catch {
            finish(.failure(error))
        }
    }

    /// Runs `body` on each value as it comes, in order; the end once every
    /// value before it was taken, or its error.
    package func forEach(_ body: (Value) throws -> Void) async throws -> End {
        while true {
            let (values, end) = state.withLock { state in
                let values = state.values
                state.values = []
                return (values, values.isEmpty ? state.end : nil)
            }
            for value in values { try body(value) }
            if let end { return try end.get() }
            if values.isEmpty { await nextSent() }
        }
    }

    private func nextSent() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.values.isEmpty, state.end == nil else { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
