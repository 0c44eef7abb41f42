import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif
import TesseraLayout

/// A test kind that stops at its first item until the test opens its gate:
/// a computation that is provably still running while the test does other
/// things. Items are 10 × 10 squares in one column.
/// `{"kind": "gate", "gate": N}` waits at the gate numbered N.
public struct GateLayout: SectionLayout {
    public static let kind = "gate"

    var gate: Double

    public init(parameters: LayoutParameters) throws {
        gate = try parameters.number("gate", default: 0)
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject { JSONObject(["gate": .number(gate)]) }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        Placer(gate: gate)
    }

    struct Placer: ItemPlacer {
        let gate: Double

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            if index == 0 { Gate.named(gate).pass() }
            sink.emit(item: index, frame: LocalFrame(cross: 0, scroll: Double(index) * 10, crossLength: 10, scrollLength: 10))
        }

        func finish(into sink: inout FrameSink) -> Double { 0 }
    }

    /// The standard kinds and this one.
    public static let registry: LayoutRegistry = {
        var registry = LayoutRegistry.standard
        registry.register(kind, factory: GateLayout.init(parameters:))
        return registry
    }()

    /// A spec of one gate section of `count` items.
    public static func spec(gate: Gate, count: Int = 1000) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "gate", "gate": \#(gate.number)}, "items": {"count": \#(count), "cycle": [{}]}}]}"#,
                 registry: registry)
    }
}

/// A gate a computation waits at: `pass()` tells the test it arrived and
/// waits until the test calls `open()`.
public final class Gate: Sendable {
    private static let gates = Mutex<[Double: Gate]>([:])
    private static let next = Atomic<Int>(1)
    /// The number a spec names this gate by.
    public let number: Double
    private let arrived = DispatchSemaphore(value: 0)
    private let niceness = Atomic<Int>(Int.min)
    private let opened = DispatchSemaphore(value: 0)

    private init(number: Double) {
        self.number = number
    }

    /// A new gate, closed.
    public static func make() -> Gate {
        let number = Double(next.add(1, ordering: .relaxed).newValue)
        let gate = Gate(number: number)
        gates.withLock { $0[number] = gate }
        return gate
    }

    static func named(_ number: Double) -> Gate {
        gates.withLock { table in
            if let gate = table[number] { return gate }
            let gate = Gate(number: number)
            table[number] = gate
            return gate
        }
    }

    func pass() {
        #if canImport(Glibc)
        niceness.store(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)), ordering: .relaxed)
        #endif
        arrived.signal()
        opened.wait()
        opened.signal()
    }

    /// Waits (at most `seconds`) for a computation to arrive; false if none did.
    public func waitForArrival(seconds: Double = 30) -> Bool {
        arrived.wait(timeout: .now() + seconds) == .success
    }

    public func open() { opened.signal() }

    /// The nice value of the thread that arrived last (Linux), or nil.
    public var arrivedNiceness: Int? {
        let value = niceness.load(ordering: .relaxed)
        return value == Int.min ? nil : value
    }
}
