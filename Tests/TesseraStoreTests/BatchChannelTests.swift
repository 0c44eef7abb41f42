import Locking
import Testing
@testable import TesseraStore
@testable import TesseraPrecompute

/// The hand-off between a batch's stages: items in index order, the room
/// bounded in count and bytes, the writer's wait with a deadline.
@Suite("store: a batch's channel hands items over in order and bounds what waits", .timeLimit(.minutes(1)))
struct BatchChannelTests {
    struct Numbered: BatchChannelItem, Equatable {
        var index: Int
        var bytes = 1
    }

    @Test("a take with a deadline times out when nothing comes, and returns an item offered while it waits at once")
    func takeWithDeadline() async throws {
        let channel = BatchChannel<Numbered>(capacity: 2)
        var started = Clock.monotonic()
        guard case .timedOut = try await channel.take(deadline: started + 0.05) else {
            Issue.record("an empty channel handed something over")
            return
        }
        #expect(Clock.monotonic() - started >= 0.05)
        started = Clock.monotonic()
        async let taken = channel.take(deadline: started + 600)
        try await Task.sleep(for: .milliseconds(20))
        #expect(channel.offer(Numbered(index: 0)) == true)
        guard case .item(Numbered(index: 0)) = try await taken else {
            Issue.record("the item offered was not taken")
            return
        }
        // Woken by the offer, not by the deadline 600 s away (far, so that a
        // parallel test run that holds every thread for seconds does not count).
        #expect(Clock.monotonic() - started < 300)
        channel.close()
        guard case .finished = try await channel.take(deadline: Clock.monotonic() + 10) else {
            Issue.record("a closed, empty channel did not finish")
            return
        }
    }

    @Test("the channel holds at most its capacity; the reader waits for room, the writer's aborted take throws")
    func capacityAndAbort() async throws {
        let channel = BatchChannel<Numbered>(capacity: 2)
        #expect(channel.offer(Numbered(index: 0)) == true && channel.offer(Numbered(index: 1)) == true)
        #expect(channel.offer(Numbered(index: 2)) == nil, "a full channel took a third item")
        async let room: Void = channel.waitForRoom(for: Numbered(index: 2))
        #expect(try await channel.next() == Numbered(index: 0))
        await room
        #expect(channel.offer(Numbered(index: 2)) == true)
        channel.abort()
        #expect(channel.offer(Numbered(index: 3)) == false, "an aborted channel took an item")
        await #expect(throws: BatchChannel<Numbered>.Aborted.self) { try await channel.take(deadline: Clock.monotonic() + 10) }
    }

    @Test("items offered out of order are taken in the order of their indexes")
    func reorders() async throws {
        let channel = BatchChannel<Numbered>(capacity: 8)
        for index in [3, 1, 2] { #expect(channel.offer(Numbered(index: index)) == true) }
        guard case .timedOut = try await channel.take(deadline: Clock.monotonic() + 0.02) else {
            Issue.record("the writer took an item before item 0 came")
            return
        }
        #expect(channel.offer(Numbered(index: 0)) == true)
        channel.close()
        var taken: [Int] = []
        while let item = try await channel.next() { taken.append(item.index) }
        #expect(taken == [0, 1, 2, 3])
    }

    @Test("past its byte budget the channel lets in only the item the writer takes next")
    func byteBudget() async throws {
        let channel = BatchChannel<Numbered>(capacity: 100, byteBudget: 1_000)
        #expect(channel.offer(Numbered(index: 1, bytes: 600)) == true)
        #expect(channel.offer(Numbered(index: 2, bytes: 600)) == nil, "the channel went past its budget for a later item")
        // Item 0 is the one the writer waits for: it comes in whatever its size.
        #expect(channel.offer(Numbered(index: 0, bytes: 5_000)) == true)
        async let room: Void = channel.waitForRoom(for: Numbered(index: 2, bytes: 600))
        #expect(try await channel.next() == Numbered(index: 0, bytes: 5_000))
        #expect(try await channel.next() == Numbered(index: 1, bytes: 600))
        await room
        #expect(channel.offer(Numbered(index: 2, bytes: 600)) == true)
    }

    @Test("a closed channel with a gap in its indexes throws instead of finishing")
    func gapThrows() async throws {
        let channel = BatchChannel<Numbered>(capacity: 4)
        #expect(channel.offer(Numbered(index: 1)) == true)
        channel.close()
        await #expect(throws: BatchChannel<Numbered>.Aborted.self) { try await channel.take(deadline: Clock.monotonic() + 10) }
    }
}
