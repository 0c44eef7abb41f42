import Foundation
import Locking
import Testing

/// What a worker hands the writer of a save: every value in order, then the end, however the two interleave.
@Suite("HandOff: values in order, then the end or its error")
struct HandOffTests {
    struct Failure: Error, Equatable {}

    @Test("values sent from another thread before and while the task waits come in order, then the end")
    func order() async throws {
        for pause in [false, true] {
            let handOff = HandOff<Int, String>()
            let sender = Thread {
                for value in 0..<1_000 {
                    handOff.send(value)
                    if pause, value % 100 == 0 { usleep(1_000) }
                }
                handOff.finish(.success("end"))
            }
            sender.start()
            var received: [Int] = []
            let end = try await handOff.forEach { received.append($0) }
            #expect(end == "end")
            #expect(received == Array(0..<1_000))
        }
    }

    @Test("an error ends it after the values before it; a throwing body stops it")
    func errors() async throws {
        let handOff = HandOff<Int, String>()
        handOff.send(1)
        handOff.send(2)
        handOff.finish(.failure(Failure()))
        var received: [Int] = []
        await #expect(throws: Failure.self) { try await handOff.forEach { received.append($0) } }
        #expect(received == [1, 2])

        let stopped = HandOff<Int, String>()
        stopped.send(1)
        stopped.send(2)
        var seen = 0
        await #expect(throws: Failure.self) {
            try await stopped.forEach { _ in
                seen += 1
                throw Failure()
            }
        }
        #expect(seen == 1)
    }
}
