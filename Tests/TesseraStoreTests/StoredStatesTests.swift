import Testing
@testable import TesseraStore
@testable import TesseraStoreFormat

/// The placer states a section row keeps: the final one, then checkpoints.
@Suite("store: stored placer states and their checkpoints")
struct StoredStatesTests {
    static func state(_ text: String) -> [UInt8] { Array("v1:{\"s\":\"\(text)\"}".utf8) }

    @Test("the column reads back; the latest state at or before an item; none before the first checkpoint")
    func roundTrip() {
        let states = StoredStates(final: Self.state("end"), checkpoints: [(2048, Self.state("a")), (4096, Self.state("b"))])
        let read = StoredStates(bytes: states.bytes)
        #expect(read.final == Self.state("end"))
        #expect(read.checkpoints.map(\.itemCount) == [2048, 4096])
        #expect(read.checkpoints.map(\.state) == [Self.state("a"), Self.state("b")])
        #expect(read.latest(atMost: 2047, itemCount: 5000) == nil)
        #expect(read.latest(atMost: 2048, itemCount: 5000)?.itemCount == 2048)
        #expect(read.latest(atMost: 4999, itemCount: 5000)?.state == Self.state("b"))
        #expect(read.latest(atMost: 5000, itemCount: 5000)?.state == Self.state("end"))
        // A column from before checkpoints: the state alone.
        #expect(StoredStates(bytes: Self.state("old")).final == Self.state("old"))
        #expect(StoredStates(bytes: Self.state("old")).checkpoints.isEmpty)
    }

    @Test("large states: every other checkpoint is left out, and again, until they fit")
    func thinning() {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        let checkpoints = (1...100).map { (itemCount: $0 * StoredStates.interval, state: big) }
        let kept = StoredStates(final: big, checkpoints: checkpoints).kept
        // 100 × 10 kB is over 256 KiB; 25 (every fourth) fit.
        #expect(kept.map(\.itemCount) == (1...25).map { $0 * 4 * StoredStates.interval })
        let read = StoredStates(bytes: StoredStates(final: big, checkpoints: checkpoints).bytes)
        #expect(read.checkpoints.map(\.itemCount) == kept.map(\.itemCount))
        let small = (1...100).map { (itemCount: $0 * StoredStates.interval, state: Self.state("\($0)")) }
        #expect(StoredStates(final: big, checkpoints: small).kept.count == 100)
    }
}
