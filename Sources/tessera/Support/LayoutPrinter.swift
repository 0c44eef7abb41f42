import TesseraLayout

/// Prints a layout in the contract's `json` or `ndjson` form.
struct LayoutPrinter {
    var format: OutputFormat

    func print(summary: LayoutSummary, elements: some Sequence<LayoutElement>, to output: inout StandardOutput) {
        switch format {
        case .json:
            output.write("{\(summary.jsonMembers),\n \"elements\": [")
            var first = true
            for element in elements {
                output.write(first ? "\n  " : ",\n  ")
                output.write(element.jsonText)
                first = false
            }
            output.writeLine(first ? "]}" : "\n ]}")
        case .ndjson:
            output.writeLine("{\(summary.jsonMembers)}")
            for element in elements { output.writeLine(element.jsonText) }
        }
    }
}
