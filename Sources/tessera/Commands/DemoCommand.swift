import ArgumentParser
import Foundation
import TesseraCommandSupport
import TesseraLayout
import SQLiteToolkit
import TesseraSQLite
import TesseraStore

/// `tessera demo [--out-dir DIR]`: a guided tour on a feed of a million items.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Lay out a sample feed of about a million items that uses every layout kind, store it, query it, draw it.",
        discussion: """
        Writes tessera-demo.sqlite (replacing a previous one) with the feed precomputed at widths 390, 430 \
        and 820, times viewport queries at the top, middle and end of the feed, draws the top of the feed to \
        tessera-demo.svg, and prints commands to try next.
        """
    )

    @Option(help: "Where to write tessera-demo.sqlite and tessera-demo.svg.")
    var outDir: String = "."

    /// Fewer items, for tests.
    @Option(parsing: .unconditional, help: .hidden)
    var items: Int = 1_000_000

    static let widths: [Double] = [390, 430, 820]
    /// A phone's or tablet's screen height for each width.
    static let viewportHeights: [Double: Double] = [390: 844, 430: 932, 820: 1180]

    func run() async throws {
        guard items >= DemoFeed.minimumItems else { throw CommandError("--items must be at least \(DemoFeed.minimumItems)") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: outDir, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandError("--out-dir '\(outDir)' is not a directory")
        }
        let started = ProgressBar.now()
        let dbPath = path("tessera-demo.sqlite")
        let svgPath = path("tessera-demo.svg")
        for file in DatabaseFiles.paths(of: dbPath) where FileManager.default.fileExists(atPath: file) {
            do {
                try FileManager.default.removeItem(atPath: file)
            } catch {
                throw CommandError("cannot delete the previous demo store '\(file)': \(error.localizedDescription)")
            }
        }

        let spec = try reportingErrors { try DemoFeed.spec(total: items) }
        let counts = DemoFeed.counts(total: items)
        print("Tessera demo: \"\(DemoFeed.name)\", \(DemoFeed.sectionCount) sections, \(grouped(counts.reduce(0, +))) items, "
            + "all \(DemoFeed.kinds.count) layout kinds (\(DemoFeed.kinds.joined(separator: ", "))).")
        print("Sections 0-6 show each kind once; section \(DemoFeed.hugeSection) is a waterfall of \(grouped(counts[DemoFeed.hugeSection])) items. "
            + "Every section has a pinned header; some have footers and backgrounds.")
        print("")

        print("Precomputing \(dbPath) at widths \(Self.widths.map { JSONWriter.format($0) }.joined(separator: ", ")):")
        let store = try await StoreFile.open(dbPath)
        defer { store.close() }
        var layouts: [StoredLayout] = []
        try await reportingErrors {
            try await store.save(spec, as: DemoFeed.name)
            for width in Self.widths {
                let bar = ProgressBar(enabled: true)
                bar.start()
                let layout = try await store.layout(name: DemoFeed.name, crossExtent: width) { bar.update($0) }.layout
                bar.finish()
                layouts.append(layout)
                let size = layout.contentSize
                print("  \(JSONWriter.format(width)): \(grouped(layout.elementCount)) elements, content \(JSONWriter.format(size.width))×\(grouped(Int(size.height.rounded()))), "
                    + String(format: "computed and stored in %.2f s", layout.computeSeconds))
            }
        }
        print("")

        print("Viewport queries from the store (pinned headers applied); latency of the first query, then the median of 100:")
        var rows = [["width", "where", "viewport x,y,w,h", "elements", "sections", "first µs", "median µs"]]
        var middles: [Double: Double] = [:]
        for layout in layouts {
            let height = Self.viewportHeights[layout.crossExtent] ?? 844
            let last = max(0, layout.contentLength - height)
            middles[layout.crossExtent] = (last / 2).rounded()
            for (label, y) in [("top", 0.0), ("middle", (last / 2).rounded()), ("end", last.rounded(.down))] {
                let viewport = Rect(x: 0, y: y, width: layout.crossExtent, height: height)
                let timed = try await reportingErrors { try await timeQueries(store: store, crossExtent: layout.crossExtent, viewport: viewport) }
                rows.append([
                    JSONWriter.format(layout.crossExtent), label,
                    [viewport.x, viewport.y, viewport.width, viewport.height].map { JSONWriter.format($0) }.joined(separator: ","),
                    String(timed.elements.count), sectionList(timed.elements),
                    String(format: "%.0f", timed.first * 1e6), String(format: "%.1f", timed.median * 1e6),
                ])
            }
        }
        print(TextTable.format(rows))
        print("")

        let viewport = Rect(x: 0, y: 700, width: 390, height: 844)
        let picture = try await reportingErrors { () async throws -> RenderedPicture in
            // The top of the feed, where each kind appears once: up to the first regular section.
            let top = try await store.elements(name: DemoFeed.name, crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 10_000))
            let end = top.first { $0.kind == .header && $0.section == DemoFeed.showcaseCounts.count }?.frame.y ?? 3000
            return try await RenderedPicture(
                summary: layouts[0].summary, rect: viewport, range: RangeArgument(lower: 0, upper: end.rounded()), maximumPixels: 4000
            ) { area in
                try await store.elements(name: DemoFeed.name, crossExtent: 390, in: area)
            }
        }
        try picture.write(to: svgPath)
        print("Drew \(svgPath): the top of the feed at width 390 (sections 0-\(DemoFeed.showcaseCounts.count - 1), "
            + "\(JSONWriter.format(picture.area.height)) points, \(picture.elementCount) elements), "
            + "with the viewport 0,700,390,844 dashed and the elements it meets highlighted.")
        print("")

        let db = shellQuoted(dbPath)
        let middle = JSONWriter.format(middles[390] ?? 0)
        let hugeItem = counts[DemoFeed.hugeSection] / 2
        print("Try next (tessera is .build/release/tessera; from the package, prefix with swift run -c release):")
        for line in [
            "tessera list --db \(db)",
            "tessera query --db \(db) --name \(DemoFeed.name) --width 390 --viewport 0,\(middle),390,844",
            "tessera item --db \(db) --name \(DemoFeed.name) --width 820 --section \(DemoFeed.hugeSection) --item \(hugeItem)",
            "tessera render --db \(db) --name \(DemoFeed.name) --width 430 --range \(middle),\(JSONWriter.format((middles[390] ?? 0) + 3000)) --rect 0,\(JSONWriter.format((middles[390] ?? 0) + 1000)),430,932 --out demo-430.svg",
            "tessera query --db \(db) --name \(DemoFeed.name) --width 600 --viewport 0,0,600,900   # a new width: computed and stored on first use",
        ] {
            print("  " + line)
        }
        print("")
        print(String(format: "Done in %.1f s.", ProgressBar.now() - started))
    }

    /// A file in the output folder, written as the user would type it.
    private func path(_ file: String) -> String {
        if outDir == "." { return file }
        return outDir.hasSuffix("/") ? outDir + file : outDir + "/" + file
    }

    /// Runs one viewport query cold, then 100 more; returns its elements and
    /// latencies, as an async caller sees them.
    private func timeQueries(store: LayoutStore, crossExtent: Double, viewport: Rect) async throws -> (elements: [LayoutElement], first: Double, median: Double) {
        var start = ProgressBar.now()
        let elements = try await store.visibleElements(name: DemoFeed.name, crossExtent: crossExtent, viewport: viewport)
        let first = ProgressBar.now() - start
        var samples: [Double] = []
        samples.reserveCapacity(100)
        for _ in 0..<100 {
            start = ProgressBar.now()
            _ = try await store.visibleElements(name: DemoFeed.name, crossExtent: crossExtent, viewport: viewport)
            samples.append(ProgressBar.now() - start)
        }
        samples.sort()
        return (elements, first, samples[samples.count / 2])
    }

    /// "0 flow, 1 grid": the sections the elements belong to.
    private func sectionList(_ elements: [LayoutElement]) -> String {
        var seen: [Int] = []
        for element in elements where seen.last != element.section && !seen.contains(element.section) {
            seen.append(element.section)
        }
        return seen.map { "\($0) \(DemoFeed.kind(ofSection: $0))" }.joined(separator: ", ")
    }

    private func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    private func shellQuoted(_ text: String) -> String {
        let safe = text.allSatisfy { $0.isLetter || $0.isNumber || "-_./".contains($0) }
        return safe ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
