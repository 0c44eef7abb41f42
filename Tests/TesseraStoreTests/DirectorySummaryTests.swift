import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
import TesseraPrecompute
import TesseraStoreFormat

/// A small layout's directory summary (`DirectorySummary`): read with its
/// row on a first query, written by every writer, verified whole, damage
/// reported.
@Suite("store: directory summaries on layout rows")
struct DirectorySummaryTests {
    static let everything = Rect(x: -1e6, y: -1e6, width: 4e6, height: 4e6)

    /// The summary stored on the layout's row now.
    static func summary(_ store: LayoutStore, name: String, crossExtent: Double) async throws -> [UInt8]? {
        try await store.readAsync { try $0.layoutRecord(name: name, crossExtent: crossExtent)?.directorySummary }
    }

    /// Clears every summary behind the store's back, as a store written
    /// before schema version 9 has none.
    static func clearSummaries(_ temporary: TemporaryStore) async throws {
        try await temporary.change(sql: "UPDATE layouts SET directory_summary = NULL") { tables in
            tables.alterLayouts { $0.directorySummary = nil }
        }
    }

    /// Sets the summary of every layout to `bytes`, behind the store's back.
    static func setSummaries(_ temporary: TemporaryStore, to bytes: [UInt8]) async throws {
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        try await temporary.change(
            sql: "UPDATE layouts SET directory_summary = X'\(hex)'",
            postgres: "UPDATE layouts SET directory_summary = '\\x\(hex)'::bytea"
        ) { tables in
            tables.alterLayouts { $0.directorySummary = bytes }
        }
    }

    /// A store holding a grid of 600 items at 300 points as "feed", its
    /// layout's row and its directory rows.
    static func gridFeed(
        _ backend: TestBackend
    ) async throws -> (TemporaryStore, LayoutRecord, (sections: [SectionRecord], groups: LayoutGroups)) {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(try StoreConformanceTests.grid(600), as: "feed", crossExtents: [300])
        let record = try #require(try await temporary.store.readAsync {
            try $0.layoutRecord(name: "feed", crossExtent: 300)
        })
        return (temporary, record, try await temporary.store.readAsync { try LayoutStore.directoryRows(of: record, storage: $0) })
    }

    /// Queries of a random layout through store objects opened anew (each
    /// query a first look at the layout), against the engine's answer.
    static func firstQueries(_ temporary: TemporaryStore, extent: Double, memory: LayoutResult, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed &* 7919)
        let size = memory.contentSize
        for _ in 0..<6 {
            let rect = Rect(
                x: random.quarter(-50...(size.width + 50)), y: random.quarter(-50...(size.height + 50)),
                width: random.quarter(0...500), height: random.quarter(0...900)
            )
            let fresh = try await temporary.reopen()
            let hits = try await fresh.elements(name: "random", crossExtent: extent, in: rect, computeIfMissing: false)
            #expect(hits == LayoutStoreRoundTripTests.bruteForce(memory.elements, rect), "seed \(seed) rect \(rect)")
            let pinned = try await temporary.reopen().visibleElements(name: "random", crossExtent: extent, viewport: rect, computeIfMissing: false)
            #expect(pinned == memory.visibleElements(viewport: rect), "seed \(seed) viewport \(rect)")
            fresh.close()
        }
    }

    @Test("first queries answer as brute force does, with the summary and without it", arguments: TestBackend.all, UInt64(1)...12)
    func answersWithAndWithout(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(maxSections: 5, maxItems: 400)
        let spec = try Spec(jsonText: json)
        let memory = try LayoutEngine().layout(spec, crossExtent: extent)
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "random", crossExtents: [extent])
        #expect(try await Self.summary(temporary.store, name: "random", crossExtent: extent) != nil, "seed \(seed)")
        try await Self.firstQueries(temporary, extent: extent, memory: memory, seed: seed)
        try await Self.clearSummaries(temporary)
        #expect(try await Self.summary(temporary.store, name: "random", crossExtent: extent) == nil)
        try await Self.firstQueries(temporary, extent: extent, memory: memory, seed: seed)
        #expect(try await temporary.store.check().isHealthy)
    }

    @Test("a summary that fails its checksum, or is another revision's, is damage: reported by the query and by the check", arguments: TestBackend.all)
    func damage(backend: TestBackend) async throws {
        let spec = try StoreConformanceTests.grid(600)
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(spec, as: "feed", crossExtents: [300])
        let intact = try #require(try await Self.summary(temporary.store, name: "feed", crossExtent: 300))
        let rect = Rect(x: 0, y: 0, width: 300, height: 800)
        func expectDamage(_ reason: String) async throws {
            let error = try await #require(throws: StoreError.self) {
                try await temporary.reopen().elements(name: "feed", crossExtent: 300, in: rect, computeIfMissing: false)
            }
            #expect(error.code == .damaged && error.message.contains("directory summary \(reason)"), "\(error.message)")
            let report = try await temporary.reopen().check()
            #expect(!report.isHealthy && report.problems.contains { $0.message.contains("directory summary \(reason)") }, "\(report.problems)")
        }

        // One bit flipped in a bound.
        var flipped = intact
        flipped[flipped.count / 2] ^= 0x10
        try await Self.setSummaries(temporary, to: flipped)
        try await expectDamage("does not match its checksum")
        // Cut short.
        try await Self.setSummaries(temporary, to: Array(intact.prefix(16)))
        try await expectDamage("is 16 bytes long")

        // Intact, but the layout's row moved on (a writer that left it behind).
        try await Self.setSummaries(temporary, to: intact)
        #expect(try await temporary.reopen().elements(name: "feed", crossExtent: 300, in: rect, computeIfMissing: false).count > 0)
        try await temporary.change(sql: "UPDATE layouts SET revision = revision + 1") { tables in
            tables.alterLayouts { $0.revision += 1; $0.resum() }
        }
        try await expectDamage("is of layout")
    }

    @Test("a summary that passes every read check but not the rows' content is found by the check", arguments: TestBackend.all)
    func checkComparesRows(backend: TestBackend) async throws {
        let (temporary, record, rows) = try await Self.gridFeed(backend)
        var sections = try DirectorySummary.decode(try #require(record.directorySummary), record: record).sections
        #expect(sections.map(\.geometry) == rows.sections.map(\.geometry))
        sections[0].geometry.itemsExtent += 1
        let wrong = try #require(DirectorySummary.encode(
            sections: sections, groups: rows.groups, layoutID: record.layout.id, revision: record.revision
        ))
        try await Self.setSummaries(temporary, to: wrong)
        let report = try await temporary.reopen().check()
        #expect(report.problems.map(\.message) == ["its directory summary does not hold what its section and cell group rows hold"])
    }

    @Test("a summary whose checksum holds but whose groups are not a whole directory is damage: a group missing, one more, first items out of order", arguments: TestBackend.all)
    func wholeness(backend: TestBackend) async throws {
        let (temporary, record, rows) = try await Self.gridFeed(backend)
        // 600 items in one section: groups at 0, 250 and 500.
        #expect(rows.groups.starts == [0, 3] && rows.groups.hasExpectedFirstItems(section: 0, itemCount: 600))
        let kept = rows.groups.ids.indices.map { index in
            GroupRow(
                layoutID: 0, slot: 0, firstItem: SectionGroups.firstItem(at: index), id: rows.groups.ids[index], bounds: rows.groups.bounds[index],
                framesChecksum: rows.groups.checksums[index]
            )
        }
        func summary(_ groups: [GroupRow]) throws -> [UInt8] {
            try #require(DirectorySummary.encode(
                sections: rows.sections, groups: LayoutGroups([groups]), layoutID: record.layout.id, revision: record.revision
            ))
        }
        // The encoder writes each group's first item from its place: the
        // first two swapped in the words (4 of the header, 15 of the
        // section, 7 per group), and the checksum sealed again.
        var swapped = try summary(kept)
        for (group, firstItem) in [(0, UInt64(250)), (1, 0)] {
            withUnsafeBytes(of: firstItem.littleEndian) { swapped.replaceSubrange((19 + 7 * group) * 8..<(20 + 7 * group) * 8, with: $0) }
        }
        let sealed = swapped.count - 8
        withUnsafeBytes(of: UInt64(bitPattern: swapped[..<sealed].withUnsafeBytes { Checksum.of($0) }).littleEndian) { swapped.replaceSubrange(sealed..., with: $0) }
        let wrong = [try summary(Array(kept.prefix(2))), try summary(kept + [kept[2]]), swapped]
        for bytes in wrong {
            try await Self.setSummaries(temporary, to: bytes)
            let error = try await #require(throws: StoreError.self) {
                try await temporary.reopen().elements(name: "feed", crossExtent: 300, in: Rect(x: 0, y: 0, width: 300, height: 800), computeIfMissing: false)
            }
            #expect(error.code == .damaged && error.message.contains("the layout's section 0 lacks cell groups of its 600 items"), "\(error.message)")
            let report = try await temporary.reopen().check()
            #expect(report.problems.map(\.message) == ["its directory summary does not hold what its section and cell group rows hold"])
        }
        // The summary of the rows themselves answers.
        try await Self.setSummaries(temporary, to: try summary(kept))
        #expect(try await temporary.reopen().elements(name: "feed", crossExtent: 300, in: Self.everything, computeIfMissing: false).count == 600)
        #expect(try await temporary.reopen().check().isHealthy)
    }

    @Test("every writer leaves the summary of the rows it wrote: save, batch, update, append, resize; grown past 64 rows, none", arguments: TestBackend.all)
    func writersKeepIt(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        func expectSummarized(_ spec: Spec, _ step: String, summarized: Bool = true) async throws {
            for extent in [300.0, 400] {
                #expect(try await (Self.summary(store, name: "feed", crossExtent: extent) != nil) == summarized, "\(step) at \(extent)")
                let memory = try LayoutEngine().layout(spec, crossExtent: extent)
                let fresh = try await temporary.reopen()
                #expect(try await fresh.elements(name: "feed", crossExtent: extent, in: Self.everything, computeIfMissing: false) == memory.elements, "\(step)")
                let report = try await fresh.check()
                #expect(report.isHealthy, "\(step): \(report.problems)")
            }
        }
        func spec(_ counts: [Int]) throws -> Spec {
            let sections = counts.enumerated().map { index, count in
                let items = Array(repeating: "{}", count: count).joined(separator: ", ")
                return #"{"id": "s\#(index)", "layout": {"kind": "flow"}, "items": [\#(items)]}"#
            }
            return try Spec(jsonText: #"{"format": 1, "sections": [\#(sections.joined(separator: ", "))]}"#)
        }
        var current = try spec([30, 300])
        try await store.save(current, as: "feed", crossExtents: [300, 400])
        try await expectSummarized(current, "save")

        current = try spec([30, 300, 5])
        try await store.update(name: "feed", with: current)
        try await expectSummarized(current, "update adding a section")

        try await store.append(name: "feed", section: 1, items: (0..<260).map { _ in Item() })
        current = try spec([30, 560, 5])
        try await expectSummarized(current, "append")

        try await store.resize(name: "feed", section: 1, changes: [ItemChange(item: 400, fields: [.size: .array([.number(100), .number(90)])])])
        let resized = try #require(try await store.spec(named: "feed"))
        try await expectSummarized(resized, "resize")

        // 70 sections: more rows than a summary holds; the old summary is cleared.
        current = try spec(Array(repeating: 3, count: 70))
        try await store.update(name: "feed", with: current)
        try await expectSummarized(current, "grown past 64 rows", summarized: false)
        current = try spec([4, 4])
        try await store.update(name: "feed", with: current)
        try await expectSummarized(current, "shrunk again")

        // A batch stores its layouts through buffers: summarized too.
        _ = try await store.saveBatch([try spec([7, 7]).named("batched")], crossExtents: [300])
        #expect(try await Self.summary(store, name: "batched", crossExtent: 300) != nil)
        #expect(try await store.check().isHealthy)
    }
}

extension Spec {
    /// This spec under `name`.
    func named(_ name: String) -> Spec {
        var spec = self
        spec.name = name
        return spec
    }
}
