import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
import TesseraInMemory
import TesseraStoreTesting
import SQLiteToolkit
@testable import TesseraSQLite
@testable import TesseraStore

/// Random damage to a store's file: every trial must end in the answer the
/// undamaged store gives, or in an error; never in other frames.
@Suite("store: damage to the file ends in the same answer or an error")
struct DamageTests {
    static let spec = #"""
        {"format": 1, "name": "feed", "sections": [
          {"id": "grid", "header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2},
           "items": {"count": 9000, "cycle": [{}]}},
          {"id": "wall", "footer": {"size": 30}, "insets": {"top": 8, "bottom": 8},
           "layout": {"kind": "staggered", "columns": 2, "itemSpacing": 4},
           "items": {"count": 7000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}]}},
          {"id": "tail", "layout": {"kind": "grid", "fraction": 4},
           "items": {"count": 4000, "cycle": [{}]}}
        ]}
        """#

    /// What the queries answer: rect queries over the whole length, item
    /// lookups in each section, and the content size.
    struct Answer: Equatable {
        var elements: [[LayoutElement]] = []
        var items: [LayoutElement?] = []
        var size: Size?
    }

    static func answer(_ store: LayoutStore) async throws -> Answer {
        var answer = Answer()
        let size = try await store.contentSize(name: "feed", crossExtent: 390)
        answer.size = size
        for step in 0..<12 {
            let y = size.height * Double(step) / 12
            await answer.elements.append(try store.visibleElements(name: "feed", crossExtent: 390, viewport: Rect(x: 0, y: y, width: 390, height: 844)))
        }
        await answer.elements.append(try store.elements(name: "feed", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: size.height)))
        for (section, item) in [(0, 0), (0, 4321), (1, 17), (1, 6999), (2, 3999), (2, 250)] {
            await answer.items.append(try store.element(name: "feed", crossExtent: 390, section: section, item: item))
        }
        return answer
    }

    enum Damage: CustomStringConvertible {
        case bytes(offset: Int, count: Int)
        case block(offset: Int)

        var description: String {
            switch self {
            case let .bytes(offset, count): "\(count) random bytes at \(offset)"
            case let .block(offset): "a random 4 KiB block at \(offset)"
            }
        }

        static func random(fileSize: Int, using generator: inout SeededRandom) -> Damage {
            if generator.chance(0.5) { return .bytes(offset: generator.int(0...(fileSize - 64)), count: 64) }
            return .block(offset: generator.int(0...(fileSize / 4096 - 1)) * 4096)
        }

        func apply(to bytes: inout [UInt8], using generator: inout SeededRandom) {
            let range = switch self {
            case let .bytes(offset, count): offset..<(offset + count)
            case let .block(offset): offset..<(offset + 4096)
            }
            for index in range { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
    }

    /// A checkpointed store of 20,000 items at 390, its bytes, and its answer.
    static func pristine(in directory: URL) async throws -> (bytes: [UInt8], answer: Answer) {
        let path = directory.appendingPathComponent("pristine.sqlite").path
        do {
            let store = try LayoutStore(path: path)
            try await store.save(try Spec(jsonText: spec), as: "feed", crossExtents: [390])
            await store.finishBackgroundWork()
        }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let answer = try await Self.answer(try LayoutStore(path: path, loadsDirectoriesInline: true))
        return (bytes, answer)
    }

    @Test("200 trials of 64 random bytes or a 4 KiB block at a random offset: each ends in the unchanged answer or an error")
    func randomDamage() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (pristine, expected) = try await Self.pristine(in: directory)
        #expect(expected.elements.allSatisfy { !$0.isEmpty })
        var generator = SeededRandom(seed: 0x7E55_E7A)
        var unchanged = 0
        var damagedErrors = 0
        var otherErrors = 0
        var wrong: [String] = []
        for trial in 0..<200 {
            let path = directory.appendingPathComponent("trial-\(trial).sqlite").path
            let damage = Damage.random(fileSize: pristine.count, using: &generator)
            var bytes = pristine
            damage.apply(to: &bytes, using: &generator)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            defer { DatabaseFiles.remove(path) }
            do {
                let answer = try await Self.answer(try LayoutStore(path: path, loadsDirectoriesInline: true))
                if answer == expected { unchanged += 1 } else { wrong.append("trial \(trial): \(damage)") }
            } catch let error as StoreError where error.code == .damaged {
                damagedErrors += 1
            } catch {
                otherErrors += 1
            }
        }
        #expect(wrong.isEmpty, "wrong answers with no error: \(wrong)")
        // Not vacuous: the checksums caught damage that SQLite did not.
        #expect(damagedErrors > 10, "unchanged \(unchanged), damaged \(damagedErrors), other errors \(otherErrors)")
        #expect(unchanged > 0)
    }

    /// Damage found on a write path: an update reads the rows it keeps, so
    /// it must not build on a damaged one. `postgres` is the same damage
    /// where PostgreSQL's schema differs (a group's directory entry is its
    /// `cell_groups` row); `memory` the same on the in-memory tables.
    static let writeDamages: [(sql: String, postgres: String?, memory: CheckTests.MemoryDamage, what: String)] = [
        ("UPDATE cell_group_directory SET checksum = checksum + 1 WHERE first_item = 250",
         "UPDATE cell_groups SET checksum = checksum + 1 WHERE first_item = 250",
         { tables in tables.alterGroups { if $0.firstItem == 250 { $0.checksum += 1 } } }, "directory row"),
        ("UPDATE layout_sections SET checksum = checksum + 1 WHERE section = 0", nil,
         { tables in tables.alterSections { if $0.key == 0 { $0.checksum += 1 } } }, "section row"),
        ("UPDATE spec_sections SET checksum = checksum + 1 WHERE section = 0", nil,
         { tables in tables.alterSpecSections { if $0.section == 0 { $0.checksum += 1 } } }, "stored section"),
    ]

    @Test("an append over a damaged row fails with .damaged and leaves the layout as it was", arguments: TestBackend.all, writeDamages.indices)
    func appendOverDamage(backend: TestBackend, index: Int) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 600, "cycle": [{}]}}]}"#)
        try await store.save(spec, as: "feed", crossExtents: [300])
        let damage = Self.writeDamages[index]
        try await temporary.change(sql: damage.sql, postgres: damage.postgres, memory: damage.memory)
        let error = try await #require(throws: StoreError.self) { try await store.append(name: "feed", section: 0, items: [Item(), Item()]) }
        #expect(error.code == .damaged, "\(damage.what): \(error)")
        let report = try await store.check()
        #expect(report.checksumMismatches == 1)
        #expect(try await store.layouts(name: "feed").map(\.cellCount) == [600])
    }

    @Test("a write that changes a damaged row fails with .damaged instead of sealing it; marking a damaged layout stale still works", arguments: TestBackend.all)
    func changeOverDamage(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 30, "cycle": [{}]}}]}"#)
        try await store.save(spec, as: "feed", crossExtents: [300])
        try await temporary.change(sql: "UPDATE specs SET checksum = checksum + 1", postgres: nil) { tables in tables.alterSpecs { $0.checksum += 1 } }
        try await temporary.change(sql: "UPDATE layouts SET checksum = checksum + 1", postgres: nil) { tables in tables.alterLayouts { $0.checksum += 1 } }
        let (specID, layoutID) = try await store.readAsync { rows -> (Int64, Int64) in
            var ids: (Int64, Int64) = (0, 0)
            try rows.rows.scan(.layouts, .all) { row in ids = (row[1].integer ?? 0, row[0].integer ?? 0); return false }
            return ids
        }
        // The spec's row, changed by a write, is refused: sealed, its damage would be gone.
        let error = try await #require(throws: StoreError.self) {
            try await store.onExecutor { try await store.write { try await $0.touchSpec(id: specID, contentHash: "h", updatedAt: 1) } }
        }
        #expect(error.code == .damaged, "\(error)")
        // A repair marks a damaged layout stale whatever its row holds.
        try await store.onExecutor { try await store.write { try await $0.markStale(layoutID: layoutID, updatedAt: 1) } }
        let report = try await store.check()
        #expect(report.checksumMismatches == 1, "the spec's row is still found damaged, the layout's row is sealed stale")
    }
}
