import Dispatch
import Foundation
import Synchronization

/// Threads of the store's own for work that blocks (SQLite calls that may
/// wait for a lock or a reader, layout computations that take seconds), so
/// that async callers never block Swift concurrency's cooperative threads.
///
/// The threads start on first use and live as long as the process: a store
/// is opened once and shared.
final class BlockingLane: Sendable {
    private let name: String
    private let threadCount: Int
    private let jobs = Mutex(Jobs())
    private let ready = DispatchSemaphore(value: 0)

    private struct Jobs {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var started = false

        mutating func pop() -> (@Sendable () -> Void)? {
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

    init(name: String, threads: Int) {
        self.name = name
        self.threadCount = max(1, threads)
    }

    /// Runs `body` on one of the lane's threads and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit { continuation.resume(with: Result { try body() }) }
        }
    }

    /// Runs `job` on one of the lane's threads, later; returns at once.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let start = jobs.withLock { state in
            state.queue.append(job)
            defer { state.started = true }
            return !state.started
        }
        if start {
            for index in 0..<threadCount {
                let thread = Thread { [self] in work() }
                thread.name = "\(name) \(index)"
                thread.start()
            }
        }
        ready.signal()
    }

    private func work() {
        while true {
            ready.wait()
            if let job = jobs.withLock({ $0.pop() }) { job() }
        }
    }
}
