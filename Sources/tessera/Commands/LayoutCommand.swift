import ArgumentParser
import TesseraLayout

/// `tessera layout SPEC --width W`: compute a layout in memory and print it.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Compute a spec's layout in memory and print every element."
    )

    @Argument(help: "The spec file (JSON, format 1; - reads standard input).")
    var spec: String

    @OptionGroup var extent: ExtentOptions

    @OptionGroup var direction: DirectionOption

    @Option(help: """
    Output format: table (default on a terminal), json (one object; default when piped) \
    or ndjson (a first line with the layout's fields, then one element per line).
    """)
    var format: DisplayFormat?

    func run() throws {
        let result = try extent.layout(specFile: spec, command: "layout")
        let elements = result.elements(direction: direction.direction)
        ElementPrinter(format: DisplayFormat.resolve(format)).print(summary: result.summary, orthogonal: result.orthogonalContent(of: elements), elements: elements)
    }
}
