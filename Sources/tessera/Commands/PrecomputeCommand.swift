import ArgumentParser
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore
import TesseraPrecompute

/// `tessera precompute SPEC --db FILE --width W [--width W2 ...]`, or
/// `--specs FEEDS.ndjson` for many specs (see PrecomputeCommand+Specs.swift).
struct PrecomputeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "precompute",
        abstract: "Store a spec and its layouts at each width, in one transaction.",
        discussion: """
            With --specs FILE, stores every spec of an NDJSON file (one spec per line, blank lines skipped), each under \
            its own "name", many per transaction, each whole or not at all. Specs stored with the same content and fresh \
            layouts are left as they are, so running the same file again is cheap. A bad line is reported as \
            FILE:LINE: and the JSON path; by default the run stops there, after committing every spec of the lines \
            before it; with --keep-going it leaves the bad line out and goes on. Either way the exit status is 1 when a \
            line failed.
            """
    )

    @Argument(help: "The spec file (JSON, format 1; - reads standard input).")
    var spec: String?

    @Option(help: ArgumentHelp("A file of specs, one JSON spec per line, each stored under its own \"name\" (instead of SPEC; - reads standard input).", valueName: "file"))
    var specs: String?

    @Flag(help: "With --specs: leave out lines that fail and go on (default: stop at the first, keeping the specs before it).")
    var keepGoing = false

    @Option(help: "The store, created when missing: \(StoreArgument.kinds).")
    var db: String

    @Option(parsing: .unconditionalSingleValue, help: "A container width to lay out (vertical specs); repeat for several.", transform: ArgumentCheck.number)
    var width: [Double] = []

    @Option(parsing: .unconditionalSingleValue, help: "A container height to lay out (horizontal specs); repeat for several.", transform: ArgumentCheck.number)
    var height: [Double] = []

    @Option(help: "The name to store the spec under (default: the spec's own name).", transform: Spec.normalizedName)
    var name: String?

    @Option(help: ArgumentHelp("Workers that lay out specs (with --specs; default: one fewer than the machine's cores, \(LayoutStore.defaultBatchJobs) here) or a new spec's widths at once (default: the machine's cores, \(LayoutStore.machineCores) here), while one writer stores them in order; 1 to \(LayoutStore.maximumJobs).", valueName: "n"))
    var jobs: Int?

    @Option(help: ArgumentHelp("With --specs: store only the specs whose names hash to shard I of N (I from 0, as JOB_COMPLETION_INDEX), so that N runs store each spec once between them; a line without a readable name is shard 0's.", valueName: "I/N"), transform: { try SpecShard(parsing: $0) })
    var shard: SpecShard?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    @OptionGroup var progress: ProgressEveryOption

    func validate() throws {
        for extent in width { try ArgumentCheck.extent(extent, flag: "--width") }
        for extent in height { try ArgumentCheck.extent(extent, flag: "--height") }
        switch (spec, specs) {
        case (nil, nil): throw ValidationError("give a SPEC file, or --specs FILE with one spec per line")
        case (.some, .some): throw ValidationError("give either a SPEC file or --specs FILE, not both")
        case (.some, nil):
            if keepGoing { throw ValidationError("--keep-going goes with --specs FILE") }
        case (nil, .some):
            if name != nil { throw ValidationError("--name names one spec: with --specs each spec is stored under its own \"name\"") }
        }
        if let name { try ArgumentCheck.specName(name, flag: "--name") }
        if shard != nil, specs == nil { throw ValidationError("--shard goes with --specs FILE") }
        if let jobs {
            guard (1...LayoutStore.maximumJobs).contains(jobs) else {
                throw ValidationError("--jobs must be 1 to \(LayoutStore.maximumJobs) workers, got \(jobs)")
            }
        }
    }

    /// The store's threads for `jobs` workers: one each, one for the writer,
    /// and the store's usual six for the rest.
    static func threads(jobs: Int) -> StoreThreads {
        StoreThreads(threads: max(6, jobs + 2))
    }

    func run() async throws {
        if let specs { return try await runBatch(file: specs) }
        guard let spec else { return }
        let loaded = try reportingErrors(file: spec) { try Spec(contentsOfFile: spec, readingStandardInput: true) }
        let extents = loaded.axis == .vertical ? width : height
        if extents.isEmpty || !(loaded.axis == .vertical ? height : width).isEmpty {
            throw CommandError(loaded.axis == .vertical
                ? "the spec scrolls vertically: give one or more --width (and no --height)"
                : "the spec scrolls horizontally: give one or more --height (and no --width)")
        }
        guard let specName = name ?? loaded.name else {
            throw CommandError("\(spec): the spec has no \"name\": give one with --name")
        }
        // Checked before the store is opened, which may create its file.
        try reportingErrors(file: spec) { try LayoutEngine.checkSectionIDs(loaded.sections) }
        let bar = ProgressBar(enabled: !quiet, lineInterval: progress.seconds)
        bar.start()
        let started = ProgressBar.now()
        let saved = try await StoreFile.withStore(creatingIfMissing: db, executor: Self.threads(jobs: jobs ?? LayoutStore.machineCores)) { store in
            try await reportingErrors(file: spec) {
                try await store.save(loaded, as: specName, crossExtents: extents, jobs: jobs) { bar.update($0) }
            }
        }
        bar.finish()
        guard !quiet else { return }
        let seconds = ProgressBar.now() - started
        for layout in saved.layouts {
            let action = saved.report.layouts.first { $0.crossExtent == layout.crossExtent }.map(UpdateSummary.describe) ?? "unchanged"
            let size = layout.contentSize
            print("\(specName) @ \(JSONWriter.format(layout.crossExtent)): \(action); \(layout.elementCount) elements, "
                + "content \(JSONWriter.format(size.width))×\(JSONWriter.format(size.height)), "
                + String(format: "%.2fs, ", layout.computeSeconds) + "\(layout.frameBytes) bytes of frames")
        }
        print(String(format: "stored in %@ in %.2fs", db, seconds))
    }
}
