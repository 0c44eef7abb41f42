import Locking
import TesseraStore

/// The store the routes serve, which a new one can replace while they
/// serve: each request holds a ``Lease`` on the store it started with;
/// ``replace(drainLimit:reopen:)`` makes new requests wait, lets those in
/// flight finish, and then swaps. Both stores are never open at once: a
/// file-backed store's `-wal` and `-shm` files are named after its path,
/// which the old and the new file share.
package final class StoreSlot: Sendable {
    /// A store and what is kept for it alone (tile bodies): a new store
    /// comes with empty caches, so that no answer of the old one is served for it.
    package struct Served: Sendable {
        package let store: LayoutStore
        let tileBodies: TileBodies
    }

    /// One request's hold on the store it reads; released when the last
    /// reference goes (a streamed body keeps it until it is written or dropped).
    package final class Lease: Sendable {
        package let served: Served
        private let slot: StoreSlot

        fileprivate init(served: Served, slot: StoreSlot) {
            self.served = served
            self.slot = slot
        }

        deinit { slot.release() }
    }

    private struct State {
        var served: Served
        var users = 0
        /// A replacement is under way: new leases wait for it.
        var replacing = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Locked<State>
    private let tileCacheBytes: Int

    package init(store: LayoutStore, tileCacheBytes: Int) {
        self.tileCacheBytes = tileCacheBytes
        state = Locked(State(served: Served(store: store, tileBodies: TileBodies(budget: tileCacheBytes))))
    }

    /// The store served now, without holding it.
    package var current: Served { state.withLock { $0.served } }

    /// A hold on the store served now; during a replacement, on the new one once it is in place.
    package func lease() async -> Lease {
        while true {
            let served = state.withLock { state -> Served? in
                guard !state.replacing else { return nil }
                state.users += 1
                return state.served
            }
            if let served { return Lease(served: served, slot: self) }
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.replacing { state.waiting.append(continuation) } else { continuation.resume() }
                }
            }
        }
    }

    private func release() {
        state.withLock { $0.users -= 1 }
    }

    /// Replaces the store: new requests wait while the requests in flight
    /// finish (at most `drainLimit`; past it the old store is closed under
    /// the rest, whose calls then fail as closed), then `reopen` closes the
    /// old store and opens the new one. Call one at a time. When `reopen`
    /// throws, the store it returned nothing for stays in place and the error is rethrown.
    package func replace(drainLimit: Duration, reopen: (LayoutStore) async throws -> LayoutStore) async throws {
        let old = state.withLock { state in
            state.replacing = true
            return state.served
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: drainLimit)
        while state.withLock({ $0.users }) > 0, clock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
        var failure: (any Error)?
        do {
            let store = try await reopen(old.store)
            state.withLock { $0.served = Served(store: store, tileBodies: TileBodies(budget: tileCacheBytes)) }
        } catch {
            failure = error
        }
        let waiting = state.withLock { state in
            state.replacing = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
        if let failure { throw failure }
    }
}

/// The lease of the request the current task answers, for the routes' handlers.
enum ServedStore {
    @TaskLocal static var lease: StoreSlot.Lease? = nil
}
