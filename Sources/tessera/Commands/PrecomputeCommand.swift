import ArgumentParser
import TesseraLayout
import TesseraSQLite

/// `tessera precompute SPEC --db FILE --width W [--width W2 ...]`.
struct PrecomputeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "precompute",
        abstract: "Store a spec and its layouts at each width, in one transaction."
    )

    @Argument(help: "The spec file (JSON, format 1).")
    var spec: String

    @Option(help: "The store file (SQLite); created when missing.")
    var db: String

    @Option(parsing: .unconditionalSingleValue, help: "A container width to lay out (vertical specs); repeat for several.")
    var width: [Double] = []

    @Option(parsing: .unconditionalSingleValue, help: "A container height to lay out (horizontal specs); repeat for several.")
    var height: [Double] = []

    @Option(help: "The name to store the spec under (default: the spec's own name).")
    var name: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        for extent in width { try ArgumentCheck.extent(extent, flag: "--width") }
        for extent in height { try ArgumentCheck.extent(extent, flag: "--height") }
    }

    func run() throws {
        let loaded = try reportingErrors(file: spec) { try Spec(contentsOfFile: spec) }
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
        let bar = ProgressBar(enabled: !quiet)
        bar.start()
        let started = ProgressBar.now()
        let saved = try StoreFile.withStore(creatingIfMissing: db) { store in
            try reportingErrors(file: spec) {
                try store.precompute(loaded, as: specName, crossExtents: extents) { bar.update($0) }
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
