import Foundation
import Testing
import TesseraInMemory
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
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(Self.version(10), as: "feed", crossExtents: [100])
        let everything = Rect(x: 0, y: 0, width: 1e7, height: 1e7)
        let stop = ManagedAtomicFlag()
        let failures = LockedList()
        let reads = LockedCounter()
        // On threads of their own: a warm query never suspends, and two
        // readers in a loop would hold every thread of the cooperative pool.
        let readerThreads = StoreThreads(threads: 2, backgroundThreads: 1)
        let readers = (0..<2).map { _ in
            Task(executorPreference: readerThreads) {
                while !stop.isSet {
                    do {
                        let elements = try await store.elements(name: "feed", crossExtent: 100, in: everything)
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
        while reads.value == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let readsBefore = reads.value
        var layoutIDs: Set<Int64> = []
        for round in 0..<12 {
            let axis = acrossAxes && round % 2 == 0 ? "horizontal" : "vertical"
            try await store.save(Self.version(round % 2 == 0 ? 20 : 10, axis: axis), as: "feed")
            layoutIDs.insert(try #require(try await store.layouts().first).id)
        }
        let readsDuring = reads.value - readsBefore
        stop.set()
        for reader in readers { await reader.value }
        let bad = failures.values
        #expect(bad.count == 0, "\(bad.prefix(3))")
        #expect(readsDuring >= 12, "only \(readsDuring) reads overlapped the 12 replacements")
        // In place keeps one layout id; across axes every save writes a new one.
        #expect(layoutIDs.count == (acrossAxes ? 12 : 1))
    }

    @Test("threads computing the same missing layout compute it once and agree", arguments: TestBackend.all)
    func concurrentComputeOnce(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
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

    /// Queries of a width not stored, from several tasks at once, enter the
    /// queries' retry loop: computed, stored, and answered as the engine answers.
    @Test("concurrent queries of a missing width from several tasks compute it and answer as the engine", arguments: TestBackend.all)
    func concurrentComputeOnMiss(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Self.version(10)
        try await store.save(spec, as: "feed", crossExtents: [100])
        let expected = try LayoutEngine().layout(spec, crossExtent: 130).visibleElements(viewport: Rect(x: 0, y: 0, width: 130, height: 500))
        let failures = LockedList()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do {
                        let answer = try await store.visibleElements(name: "feed", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 130, height: 500))
                        if answer != expected { failures.append("\(answer.count) elements, expected \(expected.count)") }
                    } catch {
                        failures.append("\(error)")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(failures.values.isEmpty, "\(failures.values.prefix(3))")
        #expect(try await store.layouts(name: "feed").map(\.crossExtent).sorted() == [100, 130])
        #expect(try await store.visibleElements(name: "feed", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 130, height: 500), computeIfMissing: false) == expected)
        // Errors come from the first read, before any computation: an unknown spec, an extent no layout takes.
        await #expect(throws: StoreError.self) { try await store.visibleElements(name: "nothing", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }
        await #expect(performing: { try await store.visibleElements(name: "feed", crossExtent: -5, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }, throws: { ($0 as? StoreError)?.code == .invalidArgument })
        await #expect(performing: { try await store.visibleElements(name: "nothing", crossExtent: 130, viewport: Rect(x: 0, y: 0, width: 1, height: 1)) }, throws: { ($0 as? StoreError)?.code == .notFound })
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
