import Locking
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The store's own threads for blocking work: its ``BlockingExecutor``
/// unless it is given another. Threads start when work arrives, up to a
/// limit, and end after a few idle seconds: a store that is no longer used
/// holds none.
///
/// Background work (``runInBackground(_:)``) runs on threads of its own at
/// a lower priority (nice 10 on Linux, where each thread has its own nice
/// value), so that computing a layout yields the cores to the threads that
/// answer queries.
public final class StoreThreads: BlockingExecutor {
    private let foreground: ThreadLane
    private let background: ThreadLane

    /// Up to `threads` threads for reads and writes that block, and up to
    /// `backgroundThreads` for background work.
    public init(threads: Int = 6, backgroundThreads: Int = 2) {
        foreground = ThreadLane(name: "tessera store", threads: threads, niceness: 0)
        background = ThreadLane(name: "tessera computations", threads: backgroundThreads, niceness: 10)
    }

    public func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await foreground.run(body)
    }

    public func runInBackground<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await background.run(body)
    }

    public func submit(_ work: @escaping @Sendable () -> Void) {
        foreground.submit {
            work()
            return {}
        }
    }
}

/// Threads that take jobs from one queue.
final class ThreadLane: Sendable {
    /// Seconds a thread waits for work before it ends.
    static let idleLifetime = 5.0

    private let name: String
    private let threadCount: Int
    /// The nice value the lane's threads run at (0: as the process).
    private let niceness: Int32
    private let jobs = Locked(Jobs())
    private let ready = DispatchSemaphore(value: 0)

    /// A job runs its work and returns what finishes it (resuming the
    /// task that waits): the lane drops the job, and with it everything
    /// the work captured, before the waiting task resumes, so that the
    /// task never sees an object outlive its last reference because a
    /// lane's thread still held it (a store released by its last user
    /// closes then, not a moment later on the lane's thread).
    typealias Job = @Sendable () -> @Sendable () -> Void

    private struct Jobs {
        var queue: [Job] = []
        var head = 0
        /// Threads alive.
        var running = 0

        var isEmpty: Bool { head == queue.count }

        mutating func pop() -> Job? {
            guard head < queue.count else { return nil }
            let job = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return job
        }
    }

    /// A lane of up to `threads` threads; with a `niceness` above 0 they
    /// run below the process's other threads.
    init(name: String, threads: Int, niceness: Int32) {
        self.name = name
        self.threadCount = max(1, threads)
        self.niceness = niceness
    }

    /// Runs `body` on one of the lane's threads and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit {
                let result = Result { try body() }
                return { continuation.resume(with: result) }
            }
        }
    }

    /// Runs `job` on one of the lane's threads, later, then what it
    /// returns once `job` is released; returns at once.
    func submit(_ job: @escaping Job) {
        let start = jobs.withLock { state in
            state.queue.append(job)
            guard state.running < threadCount else { return false }
            state.running += 1
            return true
        }
        if start {
            let thread = Thread { [self] in work() }
            thread.name = name
            thread.start()
        }
        ready.signal()
    }

    private func work() {
        if niceness > 0 { lowerCurrentThreadPriority(to: niceness) }
        while true {
            if ready.wait(timeout: .now() + Self.idleLifetime) == .timedOut {
                // No work for a while: end, unless some arrived just now.
                let ends = jobs.withLock { state in
                    guard state.isEmpty else { return false }
                    state.running -= 1
                    return true
                }
                if ends { return }
                continue
            }
            if let finish = runNext() { finish() }
        }
    }

    /// Runs the next job, if any; what finishes it, the job itself released.
    private func runNext() -> (@Sendable () -> Void)? {
        guard let job = jobs.withLock({ $0.pop() }) else { return nil }
        return job()
    }
}

/// Runs the calling thread at nice value `niceness` (above 0: below the
/// process's other threads), where the system gives each thread its own
/// (Linux); elsewhere does nothing.
package func lowerCurrentThreadPriority(to niceness: Int32) {
    #if os(Linux)
    // On Linux the nice value is a thread's own, and 0 names the calling thread.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    #endif
}
