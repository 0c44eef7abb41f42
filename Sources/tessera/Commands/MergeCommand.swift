import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraStore
import TesseraPrecompute

/// `tessera merge --into STORE SHARD…`.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Copy the specs and layouts of other stores (shards) into one, laying out nothing again.",
        discussion: """
            Every row read is checked against its checksums; the merge is one transaction, so a failure (or a killed \
            process) leaves the store as it was. A spec the store or an earlier shard holds with the same content is taken \
            once; with other content the merge fails unless --replace is given, when the later shard's wins. The shards \
            are opened read-only and must not be written meanwhile.
            """
    )

    @Option(help: "The store to merge into, created when missing: \(StoreArgument.kinds).")
    var into: String

    @Argument(help: "The stores to copy from, in order.")
    var shards: [String] = []

    @Flag(help: "A name held with other content takes the later spec, instead of failing the merge.")
    var replace = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var progress: ProgressEveryOption

    func validate() throws {
        guard !shards.isEmpty else { throw ValidationError("give the stores to merge from: tessera merge --into STORE SHARD…") }
        guard shards.count <= Self.maximumShards else {
            throw ValidationError("at most \(Self.maximumShards) stores are merged at once, got \(shards.count)")
        }
    }

    /// Open at once, each with its connections: more belong in several merges.
    static let maximumShards = 256

    func run() async throws {
        var sources: [LayoutStore] = []
        defer { for source in sources { source.close() } }
        for shard in shards { sources.append(try await StoreFile.openForReading(shard)) }
        let bar = ProgressBar(enabled: !quiet, lineInterval: progress.seconds, label: "merge")
        bar.start()
        let started = ProgressBar.now()
        let report = try await StoreFile.withStore(creatingIfMissing: into) { store in
            try await reportingErrors { try await store.merge(from: sources, replacing: replace) { bar.update($0) } }
        }
        bar.finish()
        guard !quiet else { return }
        let seconds = ProgressBar.now() - started
        let megabytes = Double(report.frameBytes) / 1e6
        print("merged \(counted(shards.count, "store")) into \(into): \(counted(report.specsAdded, "spec")) added, \(report.specsReplaced) replaced, "
            + "\(report.specsAlreadyStored) already stored; \(counted(report.layoutsCopied, "layout")), \(counted(report.groupsCopied, "cell group")), "
            + String(format: "%.1f MB of frames in %.2fs (%.0f layouts/s, %.1f MB/s)", megabytes, seconds,
                     Double(report.layoutsCopied) / max(seconds, 1e-9), megabytes / max(seconds, 1e-9)))
    }
}
