import Locking
import Testing

/// The package's lock: one value under one mutex, shared by every copy.
@Suite("Locked: one value, one mutex, every copy")
struct LockedTests {
    final class Token: Sendable {}

    @Test("threads adding through copies of the lock lose no update")
    func noLostUpdate() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                let copy = counter
                group.addTask {
                    for _ in 0..<10_000 { copy.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test("takeNext hands every number out once, whatever the threads")
    func takeNext() async {
        let next = Locked(0)
        let taken = await withTaskGroup(of: [Int].self) { group in
            for _ in 0..<4 {
                group.addTask { (0..<1_000).map { _ in next.takeNext() } }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(taken.sorted() == Array(0..<4_000))
    }

    @Test("the value is released with the last copy of the lock, and an error thrown inside leaves it unlocked")
    func release() throws {
        struct Failure: Error {}
        weak var watched: Token?
        do {
            let token = Token()
            watched = token
            let lock = Locked([token])
            #expect(throws: Failure.self) { try lock.withLock { _ in throw Failure() } }
            // Locked again after the throw: a mutex left held would block here.
            #expect(lock.withLock { $0.count } == 1)
        }
        #expect(watched == nil)
    }
}
