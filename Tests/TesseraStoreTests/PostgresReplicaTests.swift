import Foundation
import Synchronization
import Testing
import TesseraInMemory
import TesseraLayout
import TesseraPostgres
import TesseraTestSupport
@testable import TesseraStore

/// One primary, one hot-standby replica streaming from it (pg_basebackup -R),
/// both on loopback: writes on the primary, reads through the replica.
@Suite("store: PostgreSQL primary and hot-standby replica", .serialized)
struct PostgresReplicaTests {
    /// Two versions of a feed: the second edits the middle section, so an
    /// update rewrites its cells and moves the sections after it.
    static func spec(version: Int) throws -> Spec {
        let middle = version == 1 ? #"{"count": 900, "cycle": [{}]}"# : #"{"count": 1300, "cycle": [{}, {"aspectRatio": 1.5}]}"#
        return try Spec(jsonText: """
            {"format": 1, "sections": [
              {"header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 1200, "cycle": [{}]}},
              {"header": {"size": 30, "pinned": true}, "layout": {"kind": "mosaic", "columns": 3}, "items": \(middle)},
              {"layout": {"kind": "staggered", "columns": 2}, "items": {"count": 1500, "cycle": [{"size": [10, 14]}, {"size": [10, 9]}]}}]}
            """)
    }

    /// Waits until `body` stops throwing (the replica has replayed what it needs).
    private static func eventually<T>(_ body: () async throws -> T) async throws -> T {
        let deadline = Date().addingTimeInterval(20)
        while true {
            do { return try await body() } catch where Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        }
    }

    @Test("reads through the replica see the old or the new layout, never a mix; the replica refuses writes")
    func oldOrNewThroughReplica() async throws {
        let clusters = try ReplicatedClusters()
        let writer = try await LayoutStore(url: clusters.primaryURL + "?schema=feeds")
        let versions = [try Self.spec(version: 1), try Self.spec(version: 2)]
        try await writer.save(versions[0], as: "feed", crossExtents: [390])
        let reader = try await Self.eventually { try await LayoutStore(url: clusters.replicaURL + "?schema=feeds", readOnly: true) }
        // Both versions' whole layouts, and one viewport across the edited section.
        let everything = Rect(x: 0, y: 0, width: 390, height: 1e7)
        let expected = try versions.map { try LayoutEngine().layout($0, crossExtent: 390).elements(in: everything) }
        _ = try await Self.eventually { try await reader.elements(name: "feed", crossExtent: 390, in: everything, computeIfMissing: false) }

        // The replica is a hot standby: no writes, whatever the store was opened as.
        await #expect(throws: StoreError.self) { try await reader.save(versions[1], as: "feed", crossExtents: [390]) }
        let writable = await #expect(throws: StoreError.self) { try await LayoutStore(url: clusters.replicaURL + "?schema=other") }
        #expect(writable?.code == .readOnly, "\(String(describing: writable))")
        // A hot standby cannot LISTEN: freshness=notified is refused, naming the way out.
        let notified = await #expect(throws: StoreError.self) {
            try await LayoutStore(url: clusters.replicaURL + "?schema=feeds&freshness=notified", readOnly: true)
        }
        #expect(notified?.code == .unsupported && notified?.message.contains("freshness=snapshot") == true, "\(String(describing: notified))")

        // Each version stays a while, so the replica (behind by its replay
        // lag) shows each while the reads go on. The writer goes on until the
        // reads saw both or a minute passed: a loaded machine's replica lags.
        let deadline = Date().addingTimeInterval(60)
        let sawBoth = Atomic(false)
        let lastRound = Atomic(0)
        nonisolated(unsafe) var writing = true
        nonisolated(unsafe) var writeError: (any Error)?
        let writes = Thread {
            do {
                var round = 1
                while round <= 8 || (!sawBoth.load(ordering: .relaxed) && Date() < deadline) {
                    // On a thread of its own, waiting for each save.
                    let version = versions[round % 2]
                    _ = try waitForAsync { try await writer.save(version, as: "feed", crossExtents: []) }
                    lastRound.store(round, ordering: .relaxed)
                    usleep(300_000)
                    round += 1
                }
            } catch {
                writeError = error
            }
            writing = false
        }
        writes.start()
        var seen = [0, 0]
        var reads = 0
        while writing || reads < 20 {
            let answer = try await reader.elements(name: "feed", crossExtent: 390, in: everything, computeIfMissing: false)
            reads += 1
            if answer == expected[0] {
                seen[0] += 1
            } else if answer == expected[1] {
                seen[1] += 1
            } else {
                Issue.record("read \(reads) through the replica is neither version: \(answer.count) elements")
                break
            }
            if seen[0] > 0, seen[1] > 0 { sawBoth.store(true, ordering: .relaxed) }
        }
        #expect(writeError == nil, "\(String(describing: writeError))")
        #expect(seen[0] > 0 && seen[1] > 0, "versions seen: \(seen) in \(reads) reads")
        // The last write reaches the replica.
        let final = lastRound.load(ordering: .relaxed) % 2
        let last = try await Self.eventually {
            let answer = try await reader.elements(name: "feed", crossExtent: 390, in: everything, computeIfMissing: false)
            guard answer == expected[final] else { throw StoreError(.busy, "the replica is behind") }
            return answer
        }
        #expect(last == expected[final])
    }
}

extension PostgresReplicaTests {
    @Test("a store opened for writing on a replica answers reads; its writes fail with readOnly and change nothing")
    func writableOpenOnReplica() async throws {
        let clusters = try ReplicatedClusters()
        let writer = try await LayoutStore(url: clusters.primaryURL + "?schema=feeds")
        try await writer.save(try Self.spec(version: 1), as: "feed", crossExtents: [390])
        let everything = Rect(x: 0, y: 0, width: 390, height: 1e7)
        let expected = try await writer.elements(name: "feed", crossExtent: 390, in: everything)
        let onReplica = try await Self.eventually { () async throws -> LayoutStore in
            let store = try await LayoutStore(url: clusters.replicaURL + "?schema=feeds")
            _ = try await store.elements(name: "feed", crossExtent: 390, in: everything, computeIfMissing: false)
            return store
        }
        #expect(try await onReplica.elements(name: "feed", crossExtent: 390, in: everything, computeIfMissing: false) == expected)
        let refused = await #expect(throws: StoreError.self) { try await onReplica.save(try Self.spec(version: 2), as: "feed") }
        #expect(refused?.code == .readOnly, "\(String(describing: refused))")
        #expect(try await writer.elements(name: "feed", crossExtent: 390, in: everything) == expected)
    }
}
