import ArgumentParser
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraStore

/// `tessera-bench warm-path`: warm viewport queries of one stored layout, opened as `tessera-server` opens it,
/// in a function of their own (`warmQueries`) so that a profiler can record
/// only them (`Scripts/warm-path.sh` counts the types and files they go through).
struct WarmPathCommand: ParsableCommand {
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

    /// Synchronous, with the async work bridged at the top: the warm loop
    /// runs on the main thread, where a profiler records it.
    func run() throws {
        let (db, name, extent) = (layout.db, layout.name, layout.extent)
        let viewport = Rect(x: 0, y: 0, width: extent, height: 844)
        let (store, first) = try waitForAsync {
            let store = try await LayoutStore.open(db: db, requireExisting: true, loadsDirectoriesInline: true)
            return (store, try await store.visibleElements(name: name, crossExtent: extent, viewport: viewport, computeIfMissing: false))
        }
        defer { store.close() }
        let total = try Self.warmQueries(store, name: layout.name, extent: layout.extent, count: queries)
        print("\(first.count) elements in the first viewport; \(total) in \(queries) warm ones")
    }

    /// The queries a profiler records: viewports stepping 100 points down
    /// the layout's first screens, answered from memory as a warm
    /// `visibleElements` is (the async entry's few calls aside).
    @inline(never)
    static func warmQueries(_ store: LayoutStore, name: String, extent: Double, count: Int) throws -> Int {
        var total = 0
        for index in 0..<count {
            let viewport = Rect(x: 0, y: Double(index % 10) * 100, width: extent, height: 844)
            guard let elements = try store.elementsFromMemory(name: name, crossExtent: extent, in: viewport, pinning: true) else {
                throw CommandError("query \(index) of \(name.quotedForMessage) was not answered from memory")
            }
            total += elements.count
        }
        return total
    }
}
