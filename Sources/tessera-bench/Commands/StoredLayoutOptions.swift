import ArgumentParser
import TesseraBackends

/// The stored layout that `tessera-bench encoding` and `tessera-bench
/// routes` read: `--db`, `--name`, `--extent`.
struct StoredLayoutOptions: ParsableArguments {
    @Option(help: "The store: \(StoreArgument.kinds).")
    var db: String

    @Option(help: "The stored spec's name.")
    var name: String

    @Option(help: "The layout's extent (width of a vertical spec).")
    var extent: Double
}
