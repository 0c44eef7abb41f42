import ArgumentParser
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera append --db FILE --name N --section S ITEMS.ndjson`.
struct AppendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append items (one JSON object per line) to a stored spec's section; every stored width goes on from where it stopped."
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "The stored spec's name.")
    var name: String

    @Option(parsing: .unconditional, help: "The section to append to.")
    var section: Int

    @Argument(help: "The items to append: an NDJSON file, one item per line.")
    var items: String

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try ArgumentCheck.index(section, flag: "--section")
        try ArgumentCheck.specName(name, flag: "--name")
    }

    func run() async throws {
        let newItems = try reportingErrors(file: items) { try ItemFile.read(items, section: section) }
        let store = try database.open()
        defer { store.close() }
        let started = ProgressBar.now()
        let report = try await reportingErrors(file: items) { try await store.append(name: name, section: section, items: newItems) }
        guard !quiet else { return }
        for layout in report.layouts {
            print("\(name) @ \(JSONWriter.format(layout.crossExtent)): \(UpdateSummary.describe(layout))")
        }
        print(String(format: "appended %d items to section %d in %.3fs", newItems.count, section, ProgressBar.now() - started))
    }
}

/// Items read from an NDJSON file, with errors naming the file's lines.
enum ItemFile {
    static func read(_ path: String, section: Int) throws -> [Item] {
        var items: [Item] = []
        try ItemSource.file(path: path, resolvedPath: path).forEach(section: section) { item, _, _ in items.append(item) }
        return items
    }
}

/// One line saying what an update did to a layout.
enum UpdateSummary {
    static func describe(_ layout: UpdateReport.Layout) -> String {
        if layout.fullRecompute { return "computed every section (\(layout.recomputed))" }
        var parts: [String] = []
        parts.append("kept \(layout.kept)")
        parts.append("shifted \(layout.shifted)")
        if layout.resumed > 0 { parts.append("resumed \(layout.resumed)") }
        parts.append("recomputed \(layout.recomputed)")
        if layout.removed > 0 { parts.append("removed \(layout.removed)") }
        return parts.joined(separator: ", ") + " sections"
    }
}
