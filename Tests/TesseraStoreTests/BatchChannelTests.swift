import Testing
@testable import TesseraStore

/// The hand-off between a batch's stages: the writer's wait with a deadline.
@Suite("store: a batch's channel hands items over and bounds the writer's wait", .timeLimit(.minutes(1)))
struct BatchChannelTests {
    @Test("a take with a deadline times out when nothing comes, and returns an item offered while it waits at once")
    func takeWithDeadline() async throws {
        let channel = BatchChannel<Int>(capacity: 2)
        var started = Clock.monotonic()
        guard case .timedOut = try await channel.take(deadline: started + 0.05) else {
            Issue.record("an empty channel handed something over")
            return
        }
        #expect(Clock.monotonic() - started >= 0.05)
        started = Clock.monotonic()
        async let taken = channel.take(deadline: started + 10)
        try await Task.sleep(for: .milliseconds(20))
        #expect(channel.offer(7) == true)
        guard case .item(7) = try await taken else {
            Issue.record("the item offered was not taken")
            return
        }
        // Woken by the offer, not by the deadline 10 s away.
        #expect(Clock.monotonic() - started < 5)
        channel.close()
        guard case .finished = try await channel.take(deadline: Clock.monotonic() + 10) else {
            Issue.record("a closed, empty channel did not finish")
            return
        }
    }

    @Test("the channel holds at most its capacity; the reader waits for room, the writer's aborted take throws")
    func capacityAndAbort() async throws {
        let channel = BatchChannel<Int>(capacity: 2)
        #expect(channel.offer(1) == true && channel.offer(2) == true)
        #expect(channel.offer(3) == nil, "a full channel took a third item")
        async let room: Void = channel.waitForRoom()
        #expect(try await channel.next() == 1)
        await room
        #expect(channel.offer(3) == true)
        channel.abort()
        await #expect(throws: BatchChannel<Int>.Aborted.self) { try await channel.take(deadline: Clock.monotonic() + 10) }
    }
}
