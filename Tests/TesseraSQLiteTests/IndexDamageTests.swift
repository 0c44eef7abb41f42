import Foundation
import TesseraStore
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraSQLite
@testable import SQLiteToolkit

/// Damage aimed at the pages no checksum covers (the R*Tree's nodes, the
/// directory's and the section rows' b-trees and indexes), read through the
/// library's defaults: `LayoutStore(path:readOnly:)` in a fresh store, whose
/// first queries of a large layout go through the indexes. Every trial ends
/// in the answer of the undamaged store, or in an error.
@Suite("SQLite backend: damaged index pages never give another answer through the library's defaults")
struct IndexDamageTests {
    static let spec = #"""
        {"format": 1, "name": "feed", "sections": [
          {"id": "top", "header": {"size": 44, "pinned": true}, "layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2},
           "items": {"count": 20000, "cycle": [{}]}},
          {"id": "wall", "footer": {"size": 30}, "insets": {"top": 8, "bottom": 8},
           "layout": {"kind": "staggered", "columns": 3, "itemSpacing": 4},
           "items": {"count": 25000, "cycle": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"aspectRatio": 0.5}]}},
          {"id": "bricks", "layout": {"kind": "mosaic", "columns": 4},
           "items": {"count": 15000, "cycle": [{"aspectRatio": 1.5}, {"aspectRatio": 0.75}, {}]}}
        ]}
        """#

    /// 12 viewports spread over the layout, and a rect across two sections.
    static func rects(contentLength: Double) -> [Rect] {
        var rects = (0..<11).map { step in
            Rect(x: 0, y: contentLength * Double(step) / 11 + 37, width: 390, height: 844)
        }
        rects.append(Rect(x: 100, y: contentLength / 3 - 400, width: 200, height: 800))
        return rects
    }

    /// What a fresh store with every default answers for `rects`.
    static func answers(_ path: String, rects: [Rect]) async throws -> [[LayoutElement]] {
        let store = try LayoutStore(path: path, readOnly: true)
        var answers: [[LayoutElement]] = []
        for rect in rects { answers.append(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: rect)) }
        return answers
    }

    /// The pages of the tables and indexes that no checksum covers, by name.
    static func indexPages(_ path: String) throws -> (pageSize: Int, pages: [String: [Int]]) {
        let connection = try Connection(path: path, mode: .readOnly, options: .store)
        let pageSize = try connection.int("PRAGMA page_size")
        let statement = try connection.prepare("SELECT name, pageno FROM dbstat WHERE name IN (?, ?, ?, ?, ?, ?) ORDER BY pageno")
        let names = [
            "cell_groups_rtree_node", "cell_groups_rtree_rowid", "cell_groups_rtree_parent",
            "cell_group_directory", "layout_sections", "layout_sections_by_end",
        ]
        for (index, name) in names.enumerated() { try statement.bind(name, at: index + 1) }
        var pages: [String: [Int]] = [:]
        while try statement.step() { pages[statement.text(at: 0), default: []].append(statement.int(at: 1)) }
        return (pageSize, pages)
    }

    @Test("2,000 trials of random bytes in R*Tree, directory and section pages: each ends in the unchanged answer or an error")
    func aimedDamage() async throws {
        let directory = try TemporaryDirectory("index-damage")
        let pristine = directory.file("pristine.sqlite")
        let length: Double
        do {
            let store = try LayoutStore(path: pristine)
            try await store.save(try Spec(jsonText: Self.spec), as: "feed", crossExtents: [390])
            length = try await store.contentSize(name: "feed", crossExtent: 390).height
        }
        // Released: the store is one file.
        #expect(!FileManager.default.fileExists(atPath: pristine + "-wal"))
        let rects = Self.rects(contentLength: length)
        let expected = try await Self.answers(pristine, rects: rects)
        #expect(expected.allSatisfy { !$0.isEmpty })
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pristine)))
        let (pageSize, pages) = try Self.indexPages(pristine)
        let rtree = pages["cell_groups_rtree_node", default: []]
        let rows = pages.filter { $0.key != "cell_groups_rtree_node" }.values.flatMap { $0 }
        // 240 groups: a root and leaves of the R*Tree; the directory and section rows over more pages.
        #expect(rtree.count >= 2 && rows.count >= 4, "R*Tree pages \(rtree.count), other pages \(rows.count)")

        var generator = SeededRandom(seed: 0x1DE_DA6E)
        var unchanged = 0
        var errors = 0
        var wrong: [String] = []
        for trial in 0..<2_000 {
            // Half the trials hit an R*Tree node, half a directory or section page.
            let candidates = trial % 2 == 0 ? rtree : rows
            let page = candidates[generator.int(0...(candidates.count - 1))]
            var damaged = bytes
            let pageStart = (page - 1) * pageSize
            // A run of random bytes at a random place in the page (never its
            // first 100 bytes on page 1: that is the file header).
            let count = generator.chance(0.3) ? generator.int(1...4) : generator.int(8...256)
            let low = pageStart + (page == 1 ? 100 : 0)
            let offset = generator.int(low...(pageStart + pageSize - count))
            for index in offset..<(offset + count) { damaged[index] = UInt8.random(in: 0...255, using: &generator) }
            let path = directory.file("trial-\(trial).sqlite")
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            defer { DatabaseFiles.remove(path) }
            do {
                let answer = try await Self.answers(path, rects: rects)
                if answer == expected { unchanged += 1 } else { wrong.append("trial \(trial): page \(page), \(count) bytes at \(offset)") }
            } catch {
                errors += 1
            }
        }
        print("index damage: \(unchanged) unchanged, \(errors) errors, \(wrong.count) wrong (R*Tree pages \(rtree.count), others \(rows.count))")
        #expect(wrong.isEmpty, "\(wrong.count) wrong answers with no error: \(wrong.prefix(20))")
        // Not vacuous: the damage mattered in some trials, and most were still answered.
        #expect(errors > 20 && unchanged > 200, "unchanged \(unchanged), errors \(errors)")
    }
}
