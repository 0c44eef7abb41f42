import ArgumentParser
import TesseraCommandSupport
import TesseraLayout

/// `--width` for vertical specs, `--height` for horizontal ones.
struct ExtentOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "The container width, for a vertical spec.", transform: ArgumentCheck.number)
    var width: Double?

    @Option(parsing: .unconditional, help: "The container height, for a horizontal spec.", transform: ArgumentCheck.number)
    var height: Double?

    func validate() throws {
        if let width { try ArgumentCheck.extent(width, flag: "--width") }
        if let height { try ArgumentCheck.extent(height, flag: "--height") }
    }

    /// The cross extent for a spec of the given axis, or an error that says
    /// which flag the spec needs.
    func crossExtent(for axis: Axis) throws -> Double {
        switch (axis, width, height) {
        case (.vertical, let width?, nil): return width
        case (.horizontal, nil, let height?): return height
        case (.vertical, _, _): throw CommandError("the spec scrolls vertically: give its container width with --width (and no --height)")
        case (.horizontal, _, _): throw CommandError("the spec scrolls horizontally: give its container height with --height (and no --width)")
        }
    }

    /// The most items `layout`, `query --spec` and `render` lay out in
    /// memory (about 34 bytes each): larger specs belong in a store.
    static let maximumInMemoryItems = 10_000_000

    /// The spec in the file at `path`, laid out in memory at the extent
    /// these options give for its axis; errors name the file.
    func layout(specFile path: String, command: String) throws -> LayoutResult {
        let spec = try reportingErrors(file: path) { try Spec(contentsOfFile: path, readingStandardInput: true) }
        let items = spec.sections.reduce(0) { $0 + ($1.items.knownCount ?? 0) }
        guard items <= Self.maximumInMemoryItems else {
            throw CommandError("\(path): the spec has \(items) items, more than the \(Self.maximumInMemoryItems) that \(command) lays out "
                + "in memory; store it with tessera precompute and query the store")
        }
        return try reportingErrors(file: path) { try LayoutEngine().layout(spec, crossExtent: try crossExtent(for: spec.axis)) }
    }
}
