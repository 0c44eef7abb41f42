import Foundation
import Testing
import TesseraLayout
import TesseraPostgres
import TesseraTestSupport
@testable import TesseraStore

/// How a PostgreSQL store reads: a warm query is one statement outside a
/// transaction (the layout's row, whose revision vouches for the cached
/// directory and frames); frames it lacks come in a second, checked against
/// the checksums the first gave; anything else runs again in one snapshot.
@Suite("store: PostgreSQL reads: one statement when warm, cached frames never stale")
struct PostgresReadTests {
    /// One section of 2,000 grid items: 8 cell groups, a directory small
    /// enough to load inline.
    static func spec(count: Int = 2000, aspect: Double = 1) throws -> Spec {
        try Spec(jsonText: """
            {"format": 1, "sections": [{"header": {"size": 40, "pinned": true}, "layout": {"kind": "grid", "fraction": 3},
              "items": {"count": \(count), "cycle": [{"aspectRatio": \(aspect)}]}}]}
            """)
    }

    static func viewport(at y: Double) -> Rect { Rect(x: 0, y: y, width: 390, height: 844) }

    /// A viewport query's answer, and the statements it made the store send.
    static func counted(_ store: LayoutStore, _ viewport: Rect) throws -> (answer: [LayoutElement], statements: Int) {
        let before = try #require(store.postgresStatementsSent)
        let answer = try store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)
        return (answer, try #require(store.postgresStatementsSent) - before)
    }

    @Test("a warm query sends one statement; frames not cached add one; a directory not cached runs in one snapshot")
    func statementsPerQuery() throws {
        let scratch = try TemporaryStore(.postgres)
        let store = scratch.store
        let spec = try Self.spec()
        try store.save(spec, as: "feed", crossExtents: [390])
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        let near = Self.viewport(at: 1000), far = Self.viewport(at: 40_000)

        // Cold: the first attempt's second statement (the directory) is
        // refused; the read runs again as BEGIN, layout, sections, groups, frames, COMMIT.
        let cold = try Self.counted(store, near)
        #expect(cold.answer == engine.visibleElements(viewport: near))
        #expect(cold.statements == 7)
        let warm = try Self.counted(store, near)
        #expect(warm.answer == engine.visibleElements(viewport: near))
        #expect(warm.statements == 1)
        let newFrames = try Self.counted(store, far)
        #expect(newFrames.answer == engine.visibleElements(viewport: far))
        #expect(newFrames.statements == 2)
        let statistics = try #require(store.postgresFrameCacheStatistics)
        #expect(statistics.layouts >= 2 && statistics.bytes > 2 * 250 * FrameBlob.bytesPerFrame)

        // Without a frame cache every query fetches its frames: two statements.
        let uncached = try LayoutStore(url: store.location, frameCacheBudget: 0)
        _ = try uncached.visibleElements(name: "feed", crossExtent: 390, viewport: near)
        let fetched = try Self.counted(uncached, near)
        #expect(fetched.answer == engine.visibleElements(viewport: near))
        #expect(fetched.statements == 2)
    }

    @Test("a reader with every frame cached answers what another machine wrote since, never what it cached")
    func cachedFramesFollowWrites() throws {
        let scratch = try TemporaryStore(.postgres)
        let reader = scratch.store
        let writer = try scratch.reopen()
        let versions = [try Self.spec(), try Self.spec(aspect: 0.75), try Self.spec(count: 2300, aspect: 0.75)]
        try writer.save(versions[0], as: "feed", crossExtents: [390])
        var current = 0
        for next in [1, 2, 0] {
            // Every group's frames cached in the reader.
            let before = try LayoutEngine().layout(versions[current], crossExtent: 390)
            for y in stride(from: 0.0, to: before.contentSize.height, by: 400) {
                let viewport = Self.viewport(at: y)
                #expect(try reader.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                    == before.visibleElements(viewport: viewport))
            }
            try writer.save(versions[next], as: "feed")
            current = next
            let after = try LayoutEngine().layout(versions[current], crossExtent: 390)
            for y in stride(from: 0.0, to: after.contentSize.height, by: 400) {
                let viewport = Self.viewport(at: y)
                #expect(try reader.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                    == after.visibleElements(viewport: viewport), "version \(current) at \(y)")
            }
        }
        #expect(try #require(reader.postgresFrameCacheStatistics).hits > 0)
    }

    @Test("frames that do not match the checksum the read's first statement gave are read again in one snapshot: damage, never cached")
    func mismatchedFramesRunInOneSnapshot() throws {
        let scratch = try TemporaryStore(.postgres)
        let store = scratch.store
        let spec = try Self.spec()
        try store.save(spec, as: "feed", crossExtents: [390])
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        let top = Self.viewport(at: 0), far = Self.viewport(at: 40_000) // items 921-944: the group of items 750…
        // The directory is cached; the far group's frames are not.
        _ = try store.visibleElements(name: "feed", crossExtent: 390, viewport: top)
        try store.executePostgres("""
            CREATE TABLE kept AS SELECT id, frames FROM cell_groups WHERE first_item = 750;
            UPDATE cell_groups SET frames = overlay(frames placing '\\xffffffff'::bytea from 9) WHERE first_item = 750
            """)
        for _ in 0..<2 {
            let error = #expect(throws: StoreError.self) {
                _ = try store.visibleElements(name: "feed", crossExtent: 390, viewport: far, computeIfMissing: false)
            }
            #expect(error?.code == .damaged, "\(String(describing: error))")
        }
        // Given their bytes back, the group answers: the damaged bytes were never cached.
        try store.executePostgres("UPDATE cell_groups AS g SET frames = k.frames FROM kept AS k WHERE g.id = k.id; DROP TABLE kept")
        #expect(try store.visibleElements(name: "feed", crossExtent: 390, viewport: far, computeIfMissing: false) == engine.visibleElements(viewport: far))
    }
}
