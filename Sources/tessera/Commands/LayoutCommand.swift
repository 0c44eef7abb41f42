import ArgumentParser
import TesseraLayout

/// `tessera layout SPEC --width W`: compute a layout in memory and print it.
struct LayoutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Compute a spec's layout in memory and print every element."
    )

    @Argument(help: "The spec file (JSON, format 1).")
    var spec: String

    @OptionGroup var extent: ExtentOptions

    @Option(help: "Output format: json (one object) or ndjson (one element per line).")
    var format: OutputFormat = .json

    func run() throws {
        let loaded: Spec
        do {
            loaded = try Spec(contentsOfFile: spec)
        } catch let error as SpecError {
            throw CommandError.spec(error, file: spec)
        }
        let result: LayoutResult
        do {
            result = try LayoutEngine().layout(loaded, crossExtent: try extent.crossExtent(for: loaded.axis))
        } catch let error as SpecError {
            throw CommandError.spec(error, file: spec)
        }
        var output = StandardOutput()
        LayoutPrinter(format: format).print(summary: result.summary, elements: result.elements, to: &output)
        output.flush()
    }
}
