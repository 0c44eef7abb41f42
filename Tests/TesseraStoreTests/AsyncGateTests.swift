import Locking
import Synchronization
import Testing

/// The gate the store's writes, reads and computations pass: at most its
/// width inside, the others waiting without a thread, in order, those that
/// yield behind the others.
@Suite("AsyncGate: a width, an order, and work that yields")
struct AsyncGateTests {
    /// What the tasks of a test share.
    final class Shared: Sendable {
        let inside = Atomic<Int>(0)
        let most = Atomic<Int>(0)
        let queued = Atomic<Int>(0)
        let release = Atomic<Bool>(false)
        let entered = Mutex<[String]>([])
    }

    /// Waits until `condition` holds, polling (each step a suspension).
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(1)) }
        #expect(condition(), "timed out")
    }

    @Test("at most `width` tasks are inside at once, and every one gets in")
    func width() async throws {
        let gate = AsyncGate(width: 2)
        let shared = Shared()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try await gate.pass {
                        let now = shared.inside.add(1, ordering: .acquiringAndReleasing).newValue
                        _ = shared.most.max(now, ordering: .acquiringAndReleasing)
                        try await Task.sleep(for: .milliseconds(2))
                        shared.inside.subtract(1, ordering: .acquiringAndReleasing)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(shared.most.load(ordering: .acquiring) == 2)
        #expect(shared.inside.load(ordering: .acquiring) == 0)
    }

    @Test("a place given up goes to waiters in the order they came, and to those that yield only when no other waits")
    func order() async throws {
        let gate = AsyncGate(width: 1)
        let shared = Shared()
        let holder = Task {
            try await gate.pass {
                while !shared.release.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
            }
        }
        // The holder is inside: passIfFree finds no place.
        try await Self.until { gate.passIfFree({ true }) == nil }
        var waiters: [Task<Void, any Error>] = []
        for (name, yielding) in [("background 1", true), ("first", false), ("background 2", true), ("second", false)] {
            waiters.append(Task {
                shared.queued.add(1, ordering: .acquiringAndReleasing)
                if name == "background 2" {
                    // Background work says so for every gate it passes.
                    try await AsyncGate.$yields.withValue(true) { try await gate.pass { shared.entered.withLock { $0.append(name) } } }
                } else {
                    try await gate.pass(yielding: yielding) { shared.entered.withLock { $0.append(name) } }
                }
            })
            // Each one waiting before the next starts.
            let count = waiters.count
            try await Self.until { shared.queued.load(ordering: .acquiring) == count }
            try await Task.sleep(for: .milliseconds(20))
        }
        shared.release.store(true, ordering: .releasing)
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(shared.entered.withLock { $0 } == ["first", "second", "background 1", "background 2"])
        #expect(gate.passIfFree({ 7 }) == 7)
    }
}
