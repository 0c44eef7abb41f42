#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Unchecked: `state` is read and written only inside `withLock`, between
// `pthread_mutex_lock` and `pthread_mutex_unlock` of `mutex`, which orders
// every access of one thread before the next thread's.

/// A value that threads share under a POSIX mutex: the package's lock.
///
/// Used instead of `Synchronization`'s `Mutex`: when that mutex is contended
/// its waiters block inside the standard library's precompiled code, which
/// ThreadSanitizer does not see, so it reports the accesses the mutex
/// orders as races (`swift test --sanitize=thread`, Scripts/tsan.sh).
/// ThreadSanitizer knows `pthread_mutex_lock`, and the package's locks are
/// held for a few instructions, so the difference costs nothing measurable.
///
/// The lock is not recursive: `withLock` inside `withLock` on the same
/// value deadlocks.
package final class Locked<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// A lock around `state`.
    package init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, no other thread's `withLock` running meanwhile.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}

extension Locked where State == Int {
    /// The count, then one more: numbers handed out once each, whatever the threads.
    package func takeNext() -> Int {
        withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
