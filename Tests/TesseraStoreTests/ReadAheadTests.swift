import Testing
import TesseraInMemory
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// A directory's first query reads the frames of the groups it meets in
/// every section at once (`LayoutReader.readAhead`): the same answer, the
/// same cache and statistics, and damage still named by its section.
@Suite("store: a directory's first query reads its sections' frames at once")
struct ReadAheadTests {
    /// Two rows of 6 cells, then 600 cells in three groups (0, 250, 500): a
    /// phone's first screen meets the only group of section 0 and the first of section 1.
    static let spec = #"""
        {"format": 1, "sections": [
          {"header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 6, "cycle": [{}]}},
          {"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 600, "cycle": [{"aspectRatio": 0.75}]}}]}
        """#
    static let screen = Rect(x: 0, y: 0, width: 390, height: 844)

    /// The store with the spec saved, opened again: nothing of it cached.
    static func cold(_ backend: TestBackend) async throws -> (TemporaryStore, LayoutStore) {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(try Spec(jsonText: spec), as: "feed", crossExtents: [390])
        return (temporary, try await temporary.reopen())
    }

    @Test("the first screen's answer, its two groups cached and counted as misses, then as hits", arguments: TestBackend.all)
    func answerAndStatistics(backend: TestBackend) async throws {
        let (temporary, store) = try await Self.cold(backend)
        _ = temporary
        let engine = try LayoutEngine().layout(try Spec(jsonText: Self.spec), crossExtent: 390)
        let first = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: Self.screen)
        #expect(first == engine.visibleElements(viewport: Self.screen))
        #expect(Set(first.map(\.section)) == [0, 1])
        var statistics = store.cacheStatistics
        #expect((statistics.frameGroups, statistics.frameHits, statistics.frameMisses) == (2, 0, 2))
        #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: Self.screen) == first)
        statistics = store.cacheStatistics
        #expect((statistics.frameGroups, statistics.frameHits, statistics.frameMisses) == (2, 2, 2))
        // The last screen, with frames cached: section 1's last group alone.
        let deeper = Rect(x: 0, y: engine.contentSize.height - 844, width: 390, height: 844)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: deeper) == engine.visibleElements(viewport: deeper))
        #expect(store.cacheStatistics.frameGroups == 3)
    }

    @Test("damage in the second section's group is named by it, and nothing damaged is cached", arguments: TestBackend.all)
    func damageNamed(backend: TestBackend) async throws {
        let (temporary, store) = try await Self.cold(backend)
        try await temporary.change(
            sql: "UPDATE cell_groups SET frames = substr(frames, 1, 64) WHERE id = (SELECT group_id FROM cell_group_directory WHERE slot = 1 AND first_item = 0)",
            postgres: "UPDATE cell_groups SET frames = substring(frames from 1 for 64) WHERE slot = 1 AND first_item = 0"
        ) { tables in
            tables.alterGroups { if $0.slot == 1, $0.firstItem == 0 { $0.frames = Array(($0.frames ?? []).prefix(64)) } }
        }
        let error = await #expect(throws: StoreError.self) {
            try await store.visibleElements(name: "feed", crossExtent: 390, viewport: Self.screen)
        }
        #expect(error?.code == .damaged)
        #expect(error?.message.contains("the cell group of items 0… of section 1 does not match its checksum") == true, "\(String(describing: error))")
        // Section 0's group, read with it and intact, answers alone.
        let top = Rect(x: 0, y: 0, width: 390, height: 100)
        let engine = try LayoutEngine().layout(try Spec(jsonText: Self.spec), crossExtent: 390)
        #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: top) == engine.visibleElements(viewport: top))
        #expect(store.cacheStatistics.frameGroups == 1)
    }

    /// 70 sections of one row of 3 squares, a cell group each: a query of
    /// all of it (9,100 points) meets 70 groups, past what one call reads ahead.
    static let wide = #"{"format": 1, "sections": ["#
        + Array(repeating: #"{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3, "cycle": [{"aspectRatio": 1}]}}"#, count: 70)
            .joined(separator: ", ")
        + "]}"

    /// The store with `wide` saved, opened again, its engine layout and the rect of all of it.
    static func coldWide(_ backend: TestBackend) async throws -> (TemporaryStore, LayoutStore, LayoutResult, Rect) {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(try Spec(jsonText: wide), as: "wide", crossExtents: [390])
        let engine = try LayoutEngine().layout(try Spec(jsonText: wide), crossExtent: 390)
        return (temporary, try await temporary.reopen(), engine, Rect(x: 0, y: 0, width: 390, height: engine.contentSize.height))
    }

    @Test("a query meeting more groups than one call reads ahead reads them section by section, each counted a miss once", arguments: TestBackend.all)
    func pastTheCap(backend: TestBackend) async throws {
        let (temporary, store, engine, whole) = try await Self.coldWide(backend)
        _ = temporary
        let expected = engine.visibleElements(viewport: whole)
        #expect(expected.count == 210)
        // The first query loads the directory (inline, or in the background meanwhile); the next
        // one of a directory without frames then meets all 70 groups. A read that PostgreSQL runs
        // again for each statement it lacked counts each group once: not as a hit of a later run.
        #expect(try await store.visibleElements(name: "wide", crossExtent: 390, viewport: whole) == expected)
        try await AsyncGateTests.until { store.cacheStatistics.layouts == 1 }
        #expect(try await store.visibleElements(name: "wide", crossExtent: 390, viewport: whole) == expected)
        let statistics = store.cacheStatistics
        let inline = backend == .postgres
        #expect((statistics.frameGroups, statistics.frameHits, statistics.frameMisses) == (70, inline ? 70 : 0, 70))
    }
}
