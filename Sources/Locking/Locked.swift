#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Unchecked: the state is read and written only inside `withLock`, between
// `pthread_mutex_lock` and `pthread_mutex_unlock` of the mutex beside it,
// which orders every access of one thread before the next thread's.

/// A value that threads share under a POSIX mutex: the package's lock.
///
/// Used instead of `Synchronization`'s `Mutex`: when that mutex is contended
/// its waiters block inside the standard library's precompiled code, which
/// ThreadSanitizer does not see, so it reports the accesses the mutex
/// orders as races (`swift test --sanitize=thread`, Scripts/tsan.sh).
/// ThreadSanitizer knows `pthread_mutex_lock`, and the package's locks are
/// held for a few instructions, so the difference costs nothing measurable.
///
/// Copies share one value and one lock. The lock is not recursive:
/// `withLock` inside `withLock` on the same value deadlocks.
// Public and inlinable in a module that is no product, as `LRUList` is: a
// `package` generic is not specialized in another module, and every query
// takes locks. The state sits behind a pointer, so no access to it pays a
// dynamic exclusivity check, as a class's stored `var` would.
public struct Locked<State>: @unchecked Sendable {
    /// The state and, in the same allocation, its mutex (which must not move).
    @usableFromInline
    final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    @usableFromInline
    let storage: Storage

    /// A lock around `state`. Inlinable too: a caller's copy knows the
    /// storage's class at compile time, instead of looking it up in the runtime.
    @inlinable
    public init(_ state: State) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with the value, no other thread's `withLock` running meanwhile.
    @inlinable
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}

extension Locked where State == Int {
    /// The count, then one more: numbers handed out once each, whatever the threads.
    public func takeNext() -> Int {
        withLock { count in
            defer { count += 1 }
            return count
        }
    }
}
