import ArgumentParser
import TesseraBackends
import TesseraLayout
import TesseraStore

/// `tessera-bench warm-path`: warm viewport queries of one stored layout, opened as `tessera-server` opens it,
/// in a function of their own (`warmQueries`) so that a profiler can record
/// only them (`Scripts/warm-path.sh` counts the types and files they go through).
struct WarmPathCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warm-path",
        abstract: "Run warm viewport queries of one stored layout, for a profiler to record."
    )

    @OptionGroup var layout: StoredLayoutOptions

    @Option(help: "Warm queries, after one that warms the caches.")
    var queries = 200

    func validate() throws {
        guard (1...1_000_000).contains(queries) else { throw ValidationError("--queries must be from 1 to 1000000, got \(queries)") }
    }

    func run() async throws {
        let store = try await LayoutStore.open(db: layout.db, requireExisting: true, loadsDirectoriesInline: true)
        defer { store.close() }
        let viewport = Rect(x: 0, y: 0, width: layout.extent, height: 844)
        let first = try await store.visibleElements(name: layout.name, crossExtent: layout.extent, viewport: viewport, computeIfMissing: false)
        let total = try await Self.warmQueries(store, name: layout.name, extent: layout.extent, count: queries)
        print("\(first.count) elements in the first viewport; \(total) in \(queries) warm ones")
    }

    /// The queries a profiler records: viewports stepping 100 points down the layout's first screens.
    @inline(never)
    static func warmQueries(_ store: LayoutStore, name: String, extent: Double, count: Int) async throws -> Int {
        var total = 0
        for index in 0..<count {
            let viewport = Rect(x: 0, y: Double(index % 10) * 100, width: extent, height: 844)
            total += try await store.visibleElements(name: name, crossExtent: extent, viewport: viewport, computeIfMissing: false).count
        }
        return total
    }
}
