import Foundation
import Locking
import TesseraLayout
import TesseraSQLite
import TesseraStore
import Testing
@testable import TesseraHummingbird

/// The routes' replaceable store in process (`Scripts/tsan.sh` runs it
/// under ThreadSanitizer): a leased store is never closed under its holder.
@Suite("server: the routes' replaceable store", .timeLimit(.minutes(1)))
struct StoreSlotTests {
    @Test("readers holding leases never read a closed store while it is replaced 20 times; each replaced store is closed")
    func leasesOutliveReplacements() async throws {
        let fixture = try await ServerFixture()
        fixture.store.close()
        let other = fixture.directory.appendingPathComponent("other.sqlite").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: other)
        let paths = [fixture.path, other]
        let slot = StoreSlot(store: try LayoutStore(path: paths[0]), tileCacheBytes: 1 << 20)
        let stop = Locked(false)
        let viewport = Rect(x: 0, y: 0, width: 390, height: 844)

        let reads = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var reads = 0
                    while !stop.withLock({ $0 }) {
                        let lease = await slot.lease()
                        let elements = try await lease.served.store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)
                        #expect(!elements.isEmpty)
                        reads += 1
                        // A warm read may finish without suspending: yield, or these loops hold every thread of the pool.
                        await Task.yield()
                    }
                    return reads
                }
            }
            var closed: [LayoutStore] = []
            for round in 1...20 {
                try await slot.replace(drainLimit: .seconds(10)) { old in
                    old.close()
                    closed.append(old)
                    return try LayoutStore(path: paths[round % 2])
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            stop.withLock { $0 = true }
            var reads = 0
            for try await count in group { reads += count }
            for store in closed {
                await #expect(throws: StoreError.self) { try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport) }
            }
            return reads
        }
        #expect(reads > 20)
        #expect(slot.current.store.path == paths[0])
        slot.current.store.close()
    }

    @Test("a failed reopen leaves the slot serving what it served, and the waiting leases go on")
    func failedReopen() async throws {
        let fixture = try await ServerFixture()
        let slot = StoreSlot(store: fixture.store, tileCacheBytes: 0)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await slot.replace(drainLimit: .seconds(1)) { _ in throw Refused() } }
        let lease = await slot.lease()
        #expect(lease.served.store === fixture.store)
    }
}
