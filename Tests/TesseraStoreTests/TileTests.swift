import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraTiles

/// Tiles of stored layouts (the HTTP API article, the tile routes): bands along
/// the scroll axis, whole carousels, unpinned, with what a client needs to
/// pin; put together for a viewport, they answer as `/visible` does.
@Suite("store: tiles")
struct TileTests {
    /// A pinned header and footer around 20 cells of 200 × 200 (10 rows:
    /// y 50 to 2050), then a carousel of 10 cells of 120 × 150 under a
    /// 20-point header: content 2250 long at width 400, two tiles of 2048.
    static let feed = #"""
    {"format": 1, "sections": [
      {"header": {"size": 50, "pinned": true}, "footer": {"size": 30, "pinned": true},
       "layout": {"kind": "grid", "fraction": 2}, "items": {"count": 20, "cycle": [{}]}},
      {"orthogonal": {"length": 150}, "header": {"size": 20},
       "layout": {"kind": "flow", "itemSize": [120, 150]}, "items": {"count": 10, "cycle": [{}]}}
    ]}
    """#

    @Test("worked example: the manifest and both tiles, element by element, and their JSON")
    func workedExample() async throws {
        let temporary = try await TemporaryStore(.sqlite)
        let store = temporary.store
        try await store.save(try Spec(jsonText: Self.feed), as: "feed", crossExtents: [400])
        guard case .found(let manifest, _) = try await store.tileManifest(name: "feed", crossExtent: 400) else {
            Issue.record("no manifest")
            return
        }
        #expect(manifest.tileLength == 2048)
        #expect(manifest.tileCount == 2)
        #expect(manifest.layout.contentSize == Size(width: 400, height: 2250))
        #expect(manifest.revision.utf8.count == 16)
        let first = try await tile(store, manifest, 0)
        let second = try await tile(store, manifest, 1)
        let cell = { (item: Int) in
            LayoutElement(kind: .cell, section: 0, item: item, frame: Rect(x: Double(item % 2) * 200, y: 50 + Double(item / 2) * 200, width: 200, height: 200))
        }
        let header = LayoutElement(kind: .header, section: 0, frame: Rect(x: 0, y: 0, width: 400, height: 50))
        let footer = LayoutElement(kind: .footer, section: 0, frame: Rect(x: 0, y: 2050, width: 400, height: 30))
        // Tile 0, [0, 2048): the header and every cell (the last row ends at 2050).
        #expect(first.elements == [header] + (0..<20).map(cell))
        // Tile 1, [2048, …): the last row, the footer, the whole carousel (cells past the width included).
        let carousel = (0..<10).map { LayoutElement(kind: .cell, section: 1, item: $0, frame: Rect(x: Double($0) * 120, y: 2100, width: 120, height: 150)) }
        #expect(second.elements == [cell(18), cell(19), footer, LayoutElement(kind: .header, section: 1, frame: Rect(x: 0, y: 2080, width: 400, height: 20))] + carousel)
        #expect(second.orthogonal == [OrthogonalContent(section: 1, contentLength: 1200)])
        // Both tiles carry section 0's header and footer to pin, wherever they lie.
        let pinning = SectionPinning(
            section: 0, start: 0, end: 2080, cells: 50...2050, scrollStartInset: 0, header: header, headerPinned: true, footer: footer, footerPinned: true)
        #expect(first.pinning == [pinning])
        #expect(second.pinning == [pinning])
        // Pinned by the client in a viewport of tile 0 only: the footer comes up from tile 1's band.
        let viewport = Rect(x: 0, y: 1000, width: 400, height: 844)
        let visible = TiledViewport.visibleElements(
            elements: first.elements, pinning: first.pinning, viewport: viewport, axis: .vertical, direction: .leftToRight, contentSize: manifest.layout.contentSize)
        let server = try await store.answer(.viewport(viewport), name: "feed", crossExtent: 400)
        #expect(visible == server.elements)
        #expect(visible.contains { $0.kind == .footer && $0.frame.y == 1814 && $0.zIndex == 2 })

        let revision = manifest.revision
        #expect(String(decoding: TileJSON.manifest(manifest), as: UTF8.self) == """
            {"revision": "\(revision)", "tileLength": 2048, "tileCount": 2, "contentSize": [400, 2250], \
            "tiles": "revisions/\(revision)/tiles/{index}", "axis": "vertical", "extent": 400, \
            "columnTiles": "revisions/\(revision)/columns/{index}"}

            """)
        #expect(String(decoding: TileJSON.tile(second), as: UTF8.self) == """
            {"revision": "\(revision)", "index": 1, "tileLength": 2048, "band": [2048, 4096], "direction": "ltr", \
            "axis": "vertical", "extent": 400, "contentSize": [400, 2250], "orthogonal": [{"section": 1, "contentLength": 1200}],
             "pinning": [
              {"section": 0, "start": 0, "end": 2080, "cells": [50, 2050], "scrollStartInset": 0, \
            "header": {"kind": "header", "section": 0, "frame": [0, 0, 400, 50], "zIndex": 1}, "headerPinned": true, \
            "footer": {"kind": "footer", "section": 0, "frame": [0, 2050, 400, 30], "zIndex": 1}, "footerPinned": true}
             ],
             "elements": [
              {"kind": "cell", "section": 0, "item": 18, "frame": [0, 1850, 200, 200], "zIndex": 0},
              {"kind": "cell", "section": 0, "item": 19, "frame": [200, 1850, 200, 200], "zIndex": 0},
              {"kind": "footer", "section": 0, "frame": [0, 2050, 400, 30], "zIndex": 1},
              {"kind": "header", "section": 1, "frame": [0, 2080, 400, 20], "zIndex": 1},
            \((0..<10).map { #"  {"kind": "cell", "section": 1, "item": \#($0), "frame": [\#($0 * 120), 2100, 120, 150], "zIndex": 0}"# }.joined(separator: ",\n"))
             ]}

            """)
    }

    @Test("an old revision and a tile past the last are not found, and say which are current")
    func refusals() async throws {
        let temporary = try await TemporaryStore(.sqlite)
        let store = temporary.store
        try await store.save(try Spec(jsonText: Self.feed), as: "feed", crossExtents: [400])
        guard case .found(let manifest, _) = try await store.tileManifest(name: "feed", crossExtent: 400) else { return }
        let stale = await #expect(throws: StoreError.self) { _ = try await store.tile(name: "feed", crossExtent: 400, revision: "0123456789abcdef", index: 0) }
        #expect(stale?.code == .notFound)
        #expect(stale?.message.contains("the current revision is \"\(manifest.revision)\"") == true)
        let past = await #expect(throws: StoreError.self) { _ = try await store.tile(name: "feed", crossExtent: 400, revision: manifest.revision, index: 2) }
        #expect(past?.message.contains("has 2 tiles (0 to 1), no tile 2") == true)
    }

    @Test("revisions derive from the frames: equal across backends, new after a change, the old one back when the change is undone",
          arguments: TestBackend.all)
    func revisions(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let other = try await TemporaryStore(.sqlite)
        let spec = try Spec(jsonText: Self.feed)
        try await temporary.store.save(spec, as: "feed", crossExtents: [400])
        try await other.store.save(spec, as: "elsewhere", crossExtents: [400])
        let original = try await revision(temporary.store, "feed")
        #expect(try await revision(other.store, "elsewhere") == original)
        let changed = try Spec(jsonText: Self.feed.replacingOccurrences(of: #""count": 20"#, with: #""count": 21"#))
        try await temporary.store.save(changed, as: "feed", crossExtents: [400])
        #expect(try await revision(temporary.store, "feed") != original)
        try await temporary.store.save(spec, as: "feed", crossExtents: [400])
        #expect(try await revision(temporary.store, "feed") == original)
    }

    static let seeds: [UInt64] = Array(1...24)

    @Test("property: the union of the tiles over a viewport, pinned by the client, is /visible (both directions, carousels scrolled)",
          arguments: TestBackend.all, seeds)
    func tilesMakeViewports(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        generator.carouselChance = 0.3
        let (json, extent) = generator.spec(sections: 1...6, items: 1...400, axis: seed % 3 == 0 ? .horizontal : .vertical)
        let spec = try Spec(jsonText: json)
        let temporary = try await TemporaryStore(backend, cacheBudget: seed % 4 == 0 ? 0 : LayoutStore.defaultCacheBudget)
        let store = temporary.store
        try await store.save(spec, as: "random", crossExtents: [extent])
        guard case .found(let manifest, _) = try await store.tileManifest(name: "random", crossExtent: extent) else {
            Issue.record("no manifest")
            return
        }
        let size = manifest.layout.contentSize
        let axis = manifest.layout.axis
        var random = SeededRandom(seed: seed &* 7919)
        var tiles: [String: LayoutTile] = [:]
        for round in 0..<25 {
            let (given, rect) = random.carouselQuery(sectionCount: spec.sections.count, size: size, offsets: -200...900)
            let offsets = OrthogonalOffsets(given)
            let direction: LayoutDirection = round % 2 == 0 ? .leftToRight : .rightToLeft
            let covering = TiledViewport.tiles(covering: rect, axis: axis, tileLength: manifest.tileLength, tileCount: manifest.tileCount)
            let (first, last) = (covering.lowerBound, covering.upperBound)
            var elements: [LayoutElement] = []
            var pinning: [SectionPinning] = []
            for index in first...last {
                let key = "\(index) \(direction) \(given.sorted { $0.key < $1.key })"
                if tiles[key] == nil {
                    guard case .found(let tile, _) = try await store.tile(
                        name: "random", crossExtent: extent, revision: manifest.revision, index: index, direction: direction, offsets: offsets) else { return }
                    tiles[key] = tile
                }
                elements += tiles[key]?.elements ?? []
                pinning += tiles[key]?.pinning ?? []
            }
            let assembled = TiledViewport.visibleElements(
                elements: elements, pinning: pinning, viewport: rect, axis: axis, direction: direction, contentSize: size)
            let visible = try await store.answer(.viewport(rect), name: "random", crossExtent: extent, direction: direction, offsets: offsets)
            if direction == .leftToRight {
                #expect(assembled == visible.elements, "seed \(seed) viewport \(rect) tiles \(first)…\(last)\n\(json)")
            } else {
                // Mirrored back and forth, a horizontal feed's pinned positions may differ in the last bit.
                #expect(ContractReading.sameElements(assembled, visible.elements), "seed \(seed) rtl viewport \(rect) tiles \(first)…\(last)\n\(json)")
            }
        }
    }

    @Test("tile length: 2048 for phone-width vertical feeds, 1024 for horizontal ones, longer for wider containers, shorter for dense layouts")
    func tileLengths() {
        func length(_ axis: Axis, _ extent: Double, elements: Int = 100, content: Double = 10_000) -> Double {
            TileGeometry(layout: StoredLayout(
                id: 1, specName: "x", axis: axis, crossExtent: extent, state: .fresh, contentLength: content,
                sectionCount: 1, cellCount: elements, elementCount: elements, engineVersion: 1, computeSeconds: 0), overhang: 0).length
        }
        #expect(length(.vertical, 320) == 2048)
        #expect(length(.vertical, 430) == 2048)
        #expect(length(.vertical, 768) == 4096)
        #expect(length(.vertical, 1440) == 8192)
        #expect(length(.horizontal, 300) == 1024)
        #expect(length(.horizontal, 1200) == 2048)
        // 100,000 elements in 10,000 points: 10 a point, 4096 a tile at most.
        #expect(length(.vertical, 390, elements: 100_000) == 256)
        #expect(length(.vertical, 390, elements: 30_000) == 1024)
        #expect(length(.vertical, 390, elements: 10_000) == 2048)
    }

    private func tile(_ store: LayoutStore, _ manifest: TileManifest, _ index: Int) async throws -> LayoutTile {
        guard case .found(let tile, _) = try await store.tile(
            name: manifest.layout.specName, crossExtent: manifest.layout.crossExtent, revision: manifest.revision, index: index) else {
            throw StoreError(.notFound, "tile \(index) missing")
        }
        return tile
    }

    private func revision(_ store: LayoutStore, _ name: String) async throws -> String? {
        guard case .found(let manifest, _) = try await store.tileManifest(name: name, crossExtent: 400) else { return nil }
        return manifest.revision
    }
}
