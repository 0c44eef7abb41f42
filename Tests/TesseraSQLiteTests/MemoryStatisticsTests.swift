import CSQLite
import Foundation
import TesseraLayout
import TesseraSQLite
import TesseraStore
import Testing

/// SQLite's memory statistics are the process's: `tessera`, `tessera-server`
/// and `tessera-bench` turn them off first thing. Each test runs in a process
/// of its own, where SQLite starts uninitialized.
@Suite("SQLite backend: a process turns SQLite's memory statistics off before its first store")
struct MemoryStatisticsTests {
    static let spec = #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 600, "cycle": [{"aspectRatio": 0.5}, {"aspectRatio": 2}]}}]}"#

    /// Saves a spec into a new store and answers a viewport from it; the number of elements.
    static func saveAndQuery() async throws -> Int {
        let directory = try TemporaryDirectory("memory-statistics")
        // Removed only once the store below is closed.
        defer { withExtendedLifetime(directory) {} }
        let store = try LayoutStore(path: directory.file("feed.sqlite"))
        defer { store.close() }
        try await store.save(Spec(jsonText: spec), as: "feed", crossExtents: [390])
        return try await store.visibleElements(name: "feed", crossExtent: 390, viewport: Rect(x: 0, y: 0, width: 390, height: 844)).count
    }

    @Test("turned off before SQLite's first use: stores save and answer, and SQLite counted no memory")
    func offBeforeFirstUse() async {
        await #expect(processExitsWith: .success) {
            guard LayoutStore.turnOffSQLiteMemoryStatistics() else { exit(2) }
            guard try await Self.saveAndQuery() > 10 else { exit(3) }
            guard sqlite3_memory_highwater(0) == 0 else { exit(4) }
        }
    }

    @Test("asked once SQLite is in use: it says it changed nothing, and SQLite goes on counting its memory")
    func refusedAfterFirstUse() async {
        await #expect(processExitsWith: .success) {
            guard try await Self.saveAndQuery() > 10 else { exit(2) }
            // The most SQLite held at once, which only its statistics record.
            let peak = sqlite3_memory_highwater(1)
            guard peak > 0 else { exit(3) }
            guard !LayoutStore.turnOffSQLiteMemoryStatistics() else { exit(4) }
            guard try await Self.saveAndQuery() > 10, sqlite3_memory_highwater(0) > 0 else { exit(5) }
        }
    }
}
