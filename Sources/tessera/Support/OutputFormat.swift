import ArgumentParser

/// How a command prints its results.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// One JSON object.
    case json
    /// A first line with the layout's fields, then one element per line.
    case ndjson
}
