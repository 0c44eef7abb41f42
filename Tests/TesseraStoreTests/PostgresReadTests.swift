import Foundation
import Testing
import TesseraLayout
@_spi(Testing) import TesseraPostgres
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
    static func counted(_ store: LayoutStore, _ viewport: Rect) async throws -> (answer: [LayoutElement], statements: Int) {
        let before = try #require(store.postgresStatementsSent)
        let answer = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)
        return (answer, try #require(store.postgresStatementsSent) - before)
    }

    @Test("a warm query sends one statement; frames not cached add one; a cold one two with its directory summary, else one snapshot")
    func statementsPerQuery() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let store = scratch.store
        let spec = try Self.spec()
        try await store.save(spec, as: "feed", crossExtents: [390])
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        let near = Self.viewport(at: 1000), far = Self.viewport(at: 40_000)

        // Cold: the layout's row brings its directory summary (a small
        // layout), then its frames: two statements.
        let cold = try await Self.counted(store, near)
        #expect(cold.answer == engine.visibleElements(viewport: near))
        #expect(cold.statements == 2)
        let warm = try await Self.counted(store, near)
        #expect(warm.answer == engine.visibleElements(viewport: near))
        #expect(warm.statements == 1)
        let newFrames = try await Self.counted(store, far)
        #expect(newFrames.answer == engine.visibleElements(viewport: far))
        #expect(newFrames.statements == 2)
        let statistics = store.cacheStatistics
        // Two groups of 250 frames: at least a byte per frame each (their scroll positions differ).
        #expect(statistics.frameGroups >= 2 && statistics.frameBytes > 2 * 250)

        // A layout without a summary (stored before schema version 7): the
        // first attempt's second statement (the directory) is refused, and
        // the read runs again as BEGIN, layout, sections, groups, frames, COMMIT.
        try await store.executePostgres("UPDATE layouts SET directory_summary = NULL")
        let unsummarized = try await LayoutStore(url: store.location)
        let oldCold = try await Self.counted(unsummarized, near)
        #expect(oldCold.answer == engine.visibleElements(viewport: near))
        #expect(oldCold.statements == 7)

        // Without a frame cache every query fetches its frames: two statements.
        let uncached = try await LayoutStore(url: store.location, frameCacheBudget: 0)
        _ = try await uncached.visibleElements(name: "feed", crossExtent: 390, viewport: near)
        let fetched = try await Self.counted(uncached, near)
        #expect(fetched.answer == engine.visibleElements(viewport: near))
        #expect(fetched.statements == 2)
    }

    @Test("a cold query over two sections sends two statements: their frames come together")
    func coldSectionsTogether() async throws {
        let (temporary, store) = try await ReadAheadTests.cold(.postgres)
        _ = temporary
        let engine = try LayoutEngine().layout(try Spec(jsonText: ReadAheadTests.spec), crossExtent: 390)
        let before = try #require(store.postgresStatementsSent)
        let answer = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: ReadAheadTests.screen)
        #expect(answer == engine.visibleElements(viewport: ReadAheadTests.screen))
        #expect(Set(answer.map(\.section)) == [0, 1])
        #expect(try #require(store.postgresStatementsSent) - before == 2)
    }

    @Test("a query of a directory without frames meeting more groups than one call reads ahead sends a statement per section")
    func pastTheCap() async throws {
        let (temporary, store, engine, whole) = try await ReadAheadTests.coldWide(.postgres)
        _ = temporary
        // Below the content: the directory loads, no group is met.
        let below = Rect(x: 0, y: whole.height + 100, width: 390, height: 100)
        #expect(try await store.visibleElements(name: "wide", crossExtent: 390, viewport: below).isEmpty)
        let before = try #require(store.postgresStatementsSent)
        #expect(try await store.visibleElements(name: "wide", crossExtent: 390, viewport: whole) == engine.visibleElements(viewport: whole))
        // The layout's row, then a statement for each section's group at least
        // (within the cap, 2 in all: the layout's row, then every group's frames).
        let sent = try #require(store.postgresStatementsSent) - before
        #expect(sent >= 71, "\(sent)")
    }

    @Test("async queries send the same statements, fetched without a thread that waits: none runs on the executor")
    func asyncReadsNeedNoThread() async throws {
        let scratch = try await TemporaryStore(.postgres)
        try await scratch.store.save(try Self.spec(), as: "feed", crossExtents: [390])
        let executor = ExecutorTests.CountingExecutor()
        let store = try await LayoutStore(url: scratch.store.location, executor: executor)
        let engine = try LayoutEngine().layout(Self.spec(), crossExtent: 390)
        func counted(_ viewport: Rect) async throws -> (answer: [LayoutElement], statements: Int) {
            let before = try #require(store.postgresStatementsSent)
            let answer = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)
            return (answer, try #require(store.postgresStatementsSent) - before)
        }
        let near = Self.viewport(at: 1000), far = Self.viewport(at: 40_000)
        // As in statementsPerQuery: cold 2 (the layout's row with its
        // directory summary, then frames), warm 1, new frames 2.
        for (viewport, statements) in [(near, 2), (near, 1), (far, 2)] {
            let read = try await counted(viewport)
            #expect(read.answer == engine.visibleElements(viewport: viewport))
            #expect(read.statements == statements)
        }
        #expect(try await store.specs().map(\.name) == ["feed"])
        let item = try await store.element(name: "feed", crossExtent: 390, section: 0, item: 1999)
        #expect(item == engine.elements.first { $0.item == 1999 })
        let jobs = executor.jobs.withLock { $0 }
        #expect(jobs == 0, "async reads of PostgreSQL ran \(jobs) jobs on the executor")
        // Reads of a missing layout compute it on the executor, as before.
        _ = try await store.visibleElements(name: "feed", crossExtent: 430, viewport: near)
        let computed = executor.jobs.withLock { $0 } + executor.backgroundJobs.withLock { $0 }
        #expect(computed >= 1)
    }

    @Test("a reader with every frame cached answers what another machine wrote since, never what it cached")
    func cachedFramesFollowWrites() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let reader = scratch.store
        let writer = try await scratch.reopen()
        let versions = [try Self.spec(), try Self.spec(aspect: 0.75), try Self.spec(count: 2300, aspect: 0.75)]
        try await writer.save(versions[0], as: "feed", crossExtents: [390])
        var current = 0
        for next in [1, 2, 0] {
            // Every group's frames cached in the reader.
            let before = try LayoutEngine().layout(versions[current], crossExtent: 390)
            for y in stride(from: 0.0, to: before.contentSize.height, by: 400) {
                let viewport = Self.viewport(at: y)
                #expect(try await reader.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                    == before.visibleElements(viewport: viewport))
            }
            try await writer.save(versions[next], as: "feed")
            current = next
            let after = try LayoutEngine().layout(versions[current], crossExtent: 390)
            for y in stride(from: 0.0, to: after.contentSize.height, by: 400) {
                let viewport = Self.viewport(at: y)
                #expect(try await reader.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
                    == after.visibleElements(viewport: viewport), "version \(current) at \(y)")
            }
        }
        #expect(reader.cacheStatistics.frameHits > 0)
    }

    @Test("frames that do not match the checksum the read's first statement gave are read again in one snapshot: damage, never cached")
    func mismatchedFramesRunInOneSnapshot() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let store = scratch.store
        let spec = try Self.spec()
        try await store.save(spec, as: "feed", crossExtents: [390])
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        let top = Self.viewport(at: 0), far = Self.viewport(at: 40_000) // items 921-944: the group of items 750…
        // The directory is cached; the far group's frames are not.
        _ = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: top)
        try await store.executePostgres("""
            CREATE TABLE kept AS SELECT id, frames FROM cell_groups WHERE first_item = 750;
            UPDATE cell_groups SET frames = overlay(frames placing '\\xffffffff'::bytea from 9) WHERE first_item = 750
            """)
        for _ in 0..<2 {
            let error = await #expect(throws: StoreError.self) {
                _ = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: far, computeIfMissing: false)
            }
            #expect(error?.code == .damaged, "\(String(describing: error))")
        }
        // Given their bytes back, the group answers: the damaged bytes were never cached.
        try await store.executePostgres("UPDATE cell_groups AS g SET frames = k.frames FROM kept AS k WHERE g.id = k.id; DROP TABLE kept")
        #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: far, computeIfMissing: false) == engine.visibleElements(viewport: far))
    }

    // MARK: freshness=notified

    /// A handle on `store` as another machine would open it with `freshness=notified`.
    static func notified(_ store: LayoutStore) async throws -> LayoutStore {
        try await LayoutStore(url: store.location + (store.location.contains("?") ? "&" : "?") + "freshness=notified")
    }

    /// Waits (up to 30 s) until `body` returns true: a listener's reconnect,
    /// a second after it was lost, once took over 10 s while the whole suite
    /// ran 6 tests at a time beside the same server. Between tries it
    /// suspends, never blocks the cooperative pool (two threads on a
    /// two-core machine) that the other tests share; the reconnect itself no
    /// longer needs it (`PostgresListenerTests`).
    static func eventually(_ what: String, _ body: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while try await !body() {
            guard Date() < deadline else {
                Issue.record("never: \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    @Test("freshness=notified: a warm query sends nothing; another machine's commit is seen once notified, its own at once")
    func notifiedReads() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let writer = scratch.store
        let versions = [try Self.spec(), try Self.spec(aspect: 0.75), try Self.spec(count: 2300)]
        try await writer.save(versions[0], as: "feed", crossExtents: [390])
        let reader = try await Self.notified(writer)
        #expect(reader.location.hasSuffix("freshness=notified"))
        let near = Self.viewport(at: 1000)
        let engines = try versions.map { try LayoutEngine().layout($0, crossExtent: 390) }

        _ = try await Self.counted(reader, near)
        let warm = try await Self.counted(reader, near)
        #expect(warm.answer == engines[0].visibleElements(viewport: near))
        #expect(warm.statements == 0)

        // Another machine's commit: its notification arrives, then every answer is new.
        try await writer.save(versions[1], as: "feed")
        try await Self.eventually("the reader sees version 1") { try await Self.counted(reader, near).answer == engines[1].visibleElements(viewport: near) }
        for y in stride(from: 0.0, to: engines[1].contentSize.height, by: 700) {
            #expect(try await Self.counted(reader, Self.viewport(at: y)).answer == engines[1].visibleElements(viewport: Self.viewport(at: y)))
        }
        #expect(try await Self.counted(reader, near).statements == 0)

        // Its own commit: seen by the next query, without waiting.
        try await reader.save(versions[2], as: "feed")
        #expect(try await Self.counted(reader, near).answer == engines[2].visibleElements(viewport: near))

        // A change by hand (not through Tessera) notifies too: the triggers send it.
        try await writer.executePostgres("UPDATE layouts SET status = 'stale'")
        try await Self.eventually("the reader sees the layout stale") {
            do {
                _ = try await reader.visibleElements(name: "feed", crossExtent: 390, viewport: near, computeIfMissing: false)
                return false
            } catch let error as StoreError {
                return error.code == .notFound
            }
        }
    }

    @Test("freshness=notified: while the listening connection is lost every query reads its layout's row; then it listens again")
    func lostListener() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let writer = scratch.store
        let versions = [try Self.spec(), try Self.spec(aspect: 0.75)]
        try await writer.save(versions[0], as: "feed", crossExtents: [390])
        let reader = try await Self.notified(writer)
        let near = Self.viewport(at: 1000)
        _ = try await Self.counted(reader, near)
        #expect(try await Self.counted(reader, near).statements == 0)

        let schema = try PostgresURL(parsing: writer.location).schema
        try await writer.executePostgres("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE query = 'LISTEN tessera_' || (SELECT oid FROM pg_namespace WHERE nspname = '\(schema)')::text
            """)
        try await Self.eventually("a warm query reads the layout's row") { try await Self.counted(reader, near).statements == 1 }
        try await writer.save(versions[1], as: "feed")
        let second = try LayoutEngine().layout(versions[1], crossExtent: 390).visibleElements(viewport: near)
        #expect(try await Self.counted(reader, near).answer == second)

        // A second later it listens again: warm queries send nothing, and commits are heard.
        try await Self.eventually("a warm query sends nothing again") { try await Self.counted(reader, near).statements == 0 }
        #expect(try await Self.counted(reader, near).answer == second)
        try await writer.save(versions[0], as: "feed")
        let first = try LayoutEngine().layout(versions[0], crossExtent: 390).visibleElements(viewport: near)
        try await Self.eventually("the reader hears of the commit") { try await Self.counted(reader, near).answer == first }
    }

    @Test("a store of schema version 1 is migrated by a writable open: its layouts kept, its commits then notified")
    func migratesVersionOne() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let spec = try Self.spec()
        try await scratch.store.save(spec, as: "feed", crossExtents: [390])
        // As version 1 left it: no triggers, no function, no reach columns,
        // section rows without their orthogonal length (checksummed as
        // then), no item runs, no directory summaries, one version recorded
        // (version 3 changed no table).
        try await scratch.store.executePostgres("""
            ALTER TABLE layouts DROP COLUMN directory_summary; DROP TABLE spec_name_conflicts;
            DROP FUNCTION tessera_checksum(spec_item_runs); DROP TABLE spec_item_runs;
            DROP TRIGGER specs_notify ON specs; DROP TRIGGER spec_sections_notify ON spec_sections;
            DROP TRIGGER layouts_notify ON layouts; DROP TRIGGER layout_sections_notify ON layout_sections;
            DROP TRIGGER cell_groups_notify ON cell_groups; DROP FUNCTION tessera_notify_change();
            DROP TRIGGER cell_groups_reach_checksum ON cell_groups; DROP FUNCTION tessera_write_reach_checksum();
            DROP FUNCTION tessera_reach_checksum(cell_groups);
            ALTER TABLE cell_groups DROP COLUMN reach_start, DROP COLUMN reach_end, DROP COLUMN reach_slack, DROP COLUMN reach_checksum;
            DROP TRIGGER layout_sections_checksum ON layout_sections;
            ALTER TABLE layout_sections DROP COLUMN orthogonal_content_length;
            CREATE OR REPLACE FUNCTION tessera_checksum(t layout_sections) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
                SELECT hash_record_extended(ROW(
                    t.layout_id, t.section, t.slot, t.scroll_start, t.scroll_end, t.item_count, t.items_extent,
                    t.cell_span_low, t.cell_span_high, t.header_size, t.header_pinned, t.footer_size, t.footer_pinned,
                    t.background, t.scroll_start_inset, t.scroll_end_inset, t.cross_start_inset, t.placer_state), 0)
            $$;
            UPDATE layout_sections AS t SET checksum = tessera_checksum(t);
            CREATE TRIGGER layout_sections_checksum BEFORE INSERT OR UPDATE OF
                layout_id, section, slot, scroll_start, scroll_end, item_count, items_extent, cell_span_low, cell_span_high, header_size,
                header_pinned, footer_size, footer_pinned, background, scroll_start_inset, scroll_end_inset, cross_start_inset,
                placer_state ON layout_sections
                FOR EACH ROW EXECUTE FUNCTION tessera_write_checksum();
            DELETE FROM tessera_migrations WHERE version >= 2
            """)
        let old = await #expect(throws: StoreError.self) { try await LayoutStore(url: scratch.store.location, readOnly: true) }
        #expect(old?.code == .readOnly && old?.message.contains("schema version 1") == true, "\(String(describing: old))")

        let migrated = try await Self.notified(scratch.store)
        // Version 4 gave every group its reach, and a cold query proves its answer from them.
        #expect(try await migrated.check().isHealthy)
        let near = Self.viewport(at: 1000)
        #expect(try await Self.counted(migrated, near).answer == LayoutEngine().layout(spec, crossExtent: 390).visibleElements(viewport: near))
        // Version 6's runs: an append to the migrated store goes into one, and reads back whole.
        var appended = spec
        appended.sections[0].items = appended.sections[0].items.appending([Item(aspectRatio: 2), Item(fraction: 2)])
        try await scratch.store.append(name: "feed", section: 0, items: [Item(aspectRatio: 2), Item(fraction: 2)])
        #expect(try await scratch.store.spec(named: "feed")?.canonicalText == appended.canonicalText)
        let all = Rect(x: 0, y: 0, width: 390, height: 1e6)
        #expect(try await scratch.store.elements(name: "feed", crossExtent: 390, in: all) == LayoutEngine().layout(appended, crossExtent: 390).elements(in: all))
        let changed = try Self.spec(aspect: 0.75)
        try await scratch.store.save(changed, as: "feed")
        let expected = try LayoutEngine().layout(changed, crossExtent: 390).visibleElements(viewport: near)
        try await Self.eventually("the migrated store notifies") { try await Self.counted(migrated, near).answer == expected }
    }
}
