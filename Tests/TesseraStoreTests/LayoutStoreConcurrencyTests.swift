import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraSQLite

@Suite("store: concurrent readers and writers")
struct LayoutStoreConcurrencyTests {
    /// 3,000 cells of one width: a reader can tell the two versions apart by
    /// any cell, and a mix by two cells that disagree.
    static func version(_ width: Double, axis: String = "vertical") throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "axis": "\#(axis)", "sections": [{"layout": {"kind": "flow", "alignment": "start"}, "items": {"count": 3000, "cycle": [{"size": [\#(width), 10]}]}}]}"#)
    }

    /// In place: a changed section is laid out again under the same layout
    /// id. Across axes: the whole layout is deleted and written anew.
    @Test("a reader querying while a writer replaces the layout sees the old or the new one, never a mix",
          arguments: TestBackend.all, [false, true])
    func readersSeeWholeLayouts(backend: TestBackend, acrossAxes: Bool) async throws {
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.version(10), as: "feed", crossExtents: [100])
        let everything = Rect(x: 0, y: 0, width: 1e7, height: 1e7)
        let stop = ManagedAtomicFlag()
        let failures = LockedList()
        let reads = LockedCounter()
        let readers = (0..<2).map { _ in
            Thread {
                while !stop.isSet {
                    do {
                        let elements = try store.elements(name: "feed", crossExtent: 100, in: everything)
                        let widths = Set(elements.map(\.frame.width))
                        if elements.count != 3000 || widths.count != 1 {
                            failures.append("saw \(elements.count) cells of widths \(widths.sorted())")
                        }
                        reads.increment()
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
        }
        readers.forEach { $0.start() }
        while reads.value == 0 { usleep(1000) }
        let readsBefore = reads.value
        var layoutIDs: Set<Int64> = []
        for round in 0..<12 {
            let axis = acrossAxes && round % 2 == 0 ? "horizontal" : "vertical"
            try await store.save(Self.version(round % 2 == 0 ? 20 : 10, axis: axis), as: "feed")
            layoutIDs.insert(try #require(try await store.layouts().first).id)
        }
        let readsDuring = reads.value - readsBefore
        stop.set()
        while readers.contains(where: { $0.isExecuting }) { usleep(1000) }
        let bad = failures.values
        #expect(bad.count == 0, "\(bad.prefix(3))")
        #expect(readsDuring >= 12, "only \(readsDuring) reads overlapped the 12 replacements")
        // In place keeps one layout id; across axes every save writes a new one.
        #expect(layoutIDs.count == (acrossAxes ? 12 : 1))
    }

    @Test("threads computing the same missing layout compute it once and agree", arguments: TestBackend.all)
    func concurrentComputeOnce(backend: TestBackend) async throws {
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.version(10), as: "feed")
        let computed = LockedCounter()
        let results = LockedList()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                // Threads of their own, each waiting for the layout.
                let result = try waitForAsync { try await store.layout(name: "feed", crossExtent: 250) }
                let layout = result.layout
                if result.computed { computed.increment() }
                results.append("\(layout.id) \(layout.elementCount)")
            } catch {
                results.append("error \(error)")
            }
        }
        #expect(computed.value == 1)
        #expect(Set(results.values).count == 1)
    }

    /// A synchronous query of a width not stored enters the async queries'
    /// retry loop through the bridge: computed, stored, and answered as the
    /// engine answers, from several threads at once.
    @Test("synchronous queries of a missing width from several threads compute it and answer as the engine", arguments: TestBackend.all)
    func synchronousComputeOnMiss(backend: TestBackend) async throws {
        let temporary = try TemporaryStore(backend)
        let store = temporary.store
        let spec = try Self.version(10)
        try await store.save(spec, as: "feed", crossExtents: [100])
        let expected = try LayoutEngine().layout(spec, crossExtent: 130).visibleElements(viewport: Rect(x: 0, y: 0, width: 130, height: 500))
        let failures = LockedList()
        let threads = (0..<4).map { _ in
            Thread {
                do {
                    let answer = try store.visibleElements(name: "feed", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 130, height: 500))
                    if answer != expected { failures.append("\(answer.count) elements, expected \(expected.count)") }
                } catch {
                    failures.append("\(error)")
                }
            }
        }
        threads.forEach { $0.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(1000) }
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
        #expect(try await store.layouts(name: "feed").map(\.crossExtent).sorted() == [100, 130])
        // A synchronous function: the synchronous form, as the threads called it.
        func stored() throws -> [LayoutElement] {
            try store.visibleElements(name: "feed", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 130, height: 500), computeIfMissing: false)
        }
        #expect(try stored() == expected)
        // Errors come from the first read, before any bridge: an unknown spec, an extent no layout takes.
        #expect(throws: StoreError.self) { try store.visibleElements(name: "nothing", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }
        #expect(performing: { try store.visibleElements(name: "feed", crossExtent: -5, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }, throws: { ($0 as? StoreError)?.code == .invalidArgument })
        #expect(performing: { try store.visibleElements(name: "nothing", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }, throws: { ($0 as? StoreError)?.code == .notFound })
    }
}

final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var isSet: Bool { lock.withLock { flag } }
    func set() { lock.withLock { flag = true } }
}

final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
}

final class LockedList: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    var values: [String] { lock.withLock { items } }
    func append(_ item: String) { lock.withLock { items.append(item) } }
}
