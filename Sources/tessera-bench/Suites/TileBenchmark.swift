import TesseraGzip
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraTiles

/// The tile routes' figures from a SQLite store, in process: a staggered
/// feed of `count` items (2 columns, aspect ratios at random, a pinned
/// header) at phone widths. Tiles an 844-point viewport needs (mean over
/// random offsets), the bytes of a tile per element (plain, and gzip as the
/// server sends it; as JSON objects and as columns), and the median time of a tile read and its JSON beside
/// a viewport read and its JSON, the same run.
struct TileBenchmark {
    var count: Int
    var queries: Int
    var runs: Int
    var directory: String

    static let widths: [Double] = [320, 375, 390, 414, 430]
    static let viewport = 844.0

    struct Report: Codable {
        var items: Int
        /// Per width: the tile length, the tile count, the mean tiles per viewport.
        var widths: [Double]
        var tileLengths: [Double]
        var tileCounts: [Int]
        var tilesPerViewport: [Double]
        /// At 390: elements per tile on average, bytes per element plain and gzip (level 6).
        var elementsPerTile: Double
        var plainBytesPerElement: Double
        var gzipBytesPerElement: Double
        /// The same tiles as columns (`…/columns/{index}`): plain, and gzip (level 6).
        var columnPlainBytesPerElement: Double
        var columnGzipBytesPerElement: Double
        /// p50 in microseconds of a tile read and its JSON, of a viewport read and its JSON, and of gzip of a tile.
        var tileP50Microseconds: Double
        var viewportP50Microseconds: Double
        var gzipP50Microseconds: Double
    }

    /// `count` items with aspect ratios from 0.5 to 1.6 (three decimals) under a pinned header.
    func spec() throws -> Spec {
        var random = BenchRandom(seed: 26)
        let items = (0..<count).map { _ in
            #"{"aspectRatio": \#(JSONWriter.format((500 + random.unit() * 1100).rounded() / 1000))}"#
        }
        return try Spec(jsonText: """
            {"format": 1, "name": "tiles", "sections": [{"header": {"size": 44, "pinned": true},
             "layout": {"kind": "staggered", "columns": 2, "itemSpacing": 4, "lineSpacing": 4},
             "insets": {"left": 8, "right": 8}, "items": [\(items.joined(separator: ","))]}]}
            """)
    }

    func run() async throws -> Report {
        let path = "\(directory)/tiles.sqlite"
        StoreBenchmark.remove(path)
        defer { StoreBenchmark.remove(path) }
        let store = try LayoutStore(path: path)
        defer { store.close() }
        try await store.save(try spec(), crossExtents: Self.widths)
        var report = Report(
            items: count, widths: Self.widths, tileLengths: [], tileCounts: [], tilesPerViewport: [], elementsPerTile: 0,
            plainBytesPerElement: 0, gzipBytesPerElement: 0, columnPlainBytesPerElement: 0, columnGzipBytesPerElement: 0, tileP50Microseconds: 0, viewportP50Microseconds: 0, gzipP50Microseconds: 0)
        var random = BenchRandom(seed: 1)
        var manifests: [TileManifest] = []
        for width in Self.widths {
            guard case .found(let manifest, _) = try await store.tileManifest(name: "tiles", crossExtent: width, compute: .never) else { continue }
            manifests.append(manifest)
            let length = manifest.tileLength
            var total = 0
            for _ in 0..<100_000 {
                let start = random.unit() * max(0, manifest.layout.contentLength - Self.viewport)
                let first = Int((start / length).rounded(.down))
                let last = min(manifest.tileCount - 1, Int(((start + Self.viewport) / length).rounded(.up)) - 1)
                total += last - first + 1
            }
            report.tileLengths.append(length)
            report.tileCounts.append(manifest.tileCount)
            report.tilesPerViewport.append(Double(total) / 100_000)
        }
        guard let manifest = manifests.first(where: { $0.layout.crossExtent == 390 }) else { return report }
        // Bytes: every tile of the layout at 390.
        var elements = 0, plain = 0, compressed = 0, columnPlain = 0, columnCompressed = 0
        for index in 0..<manifest.tileCount {
            let tile = try await tile(store, manifest, index)
            let bytes = TileJSON.tile(tile)
            let columns = TileJSON.columnTile(tile)
            elements += tile.elements.count
            plain += bytes.count
            compressed += Gzip.compress(bytes)?.count ?? bytes.count
            columnPlain += columns.count
            columnCompressed += Gzip.compress(columns)?.count ?? columns.count
        }
        report.elementsPerTile = Double(elements) / Double(manifest.tileCount)
        report.plainBytesPerElement = Double(plain) / Double(max(1, elements))
        report.gzipBytesPerElement = Double(compressed) / Double(max(1, elements))
        report.columnPlainBytesPerElement = Double(columnPlain) / Double(max(1, elements))
        report.columnGzipBytesPerElement = Double(columnCompressed) / Double(max(1, elements))
        // Time: a tile and a viewport at random, in turn, medians over runs.
        var perRun: [[Double]] = []
        for _ in 0..<runs {
            var samples = [Samples](repeating: Samples(), count: 3)
            for _ in 0..<queries {
                let index = Int(random.unit() * Double(manifest.tileCount))
                let viewport = Rect(x: 0, y: random.unit() * max(0, manifest.layout.contentLength - Self.viewport), width: 390, height: Self.viewport)
                var start = now()
                let bytes = TileJSON.tile(try await tile(store, manifest, min(index, manifest.tileCount - 1)))
                samples[0].add(now() - start)
                start = now()
                let answer = try await store.answer(.viewport(viewport), name: "tiles", crossExtent: 390, computeIfMissing: false)
                var text: [UInt8] = []
                LayoutJSON.appendAnswerOpening(summary: answer.layout.summary, orthogonal: answer.orthogonal, to: &text)
                for (offset, element) in answer.elements.enumerated() { LayoutJSON.appendAnswerElement(element, first: offset == 0, to: &text) }
                LayoutJSON.appendAnswerClosing(empty: answer.elements.isEmpty, to: &text)
                samples[1].add(now() - start)
                start = now()
                _ = Gzip.compress(bytes)
                samples[2].add(now() - start)
            }
            perRun.append(samples.map { $0.median * 1e6 })
        }
        let p50 = medianOfRuns(perRun)
        report.tileP50Microseconds = p50[0]
        report.viewportP50Microseconds = p50[1]
        report.gzipP50Microseconds = p50[2]
        return report
    }

    private func tile(_ store: LayoutStore, _ manifest: TileManifest, _ index: Int) async throws -> LayoutTile {
        guard case .found(let tile, _) = try await store.tile(
            name: "tiles", crossExtent: manifest.layout.crossExtent, revision: manifest.revision, index: index, compute: .never) else {
            throw StoreError(.notFound, "tile \(index) of the tiles benchmark is missing")
        }
        return tile
    }
}
