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

    @OptionGroup var target: SectionTarget

    @Argument(help: "The items to append: an NDJSON file, one item per line.")
    var items: String

    func run() async throws {
        try await AppendRequest(db: target.database.db, name: target.name, section: target.section, quiet: target.quiet, items: items).run()
    }
}

/// What `tessera append` does once its arguments are read (by
/// ``AppendCommand`` or ``QuickCommand``).
struct AppendRequest: Equatable {
    var db: String
    var name: String
    var section: Int
    var quiet: Bool
    var items: String

    func run() async throws {
        let newItems = try reportingErrors(file: items) { try ItemFile.read(items, section: section) }
        let started = ProgressBar.now()
        try await SectionTarget.write(db: db, name: name, quiet: quiet, file: items) { store in
            try await store.append(name: name, section: section, items: newItems)
        }
        guard !quiet else { return }
        print(String(format: "appended %d items to section %d in %.3fs", newItems.count, section, ProgressBar.now() - started))
    }
}

/// The stored section a command writes to: `--db`, `--name`, `--section`,
/// and `--quiet`.
struct SectionTarget: ParsableArguments {
    @OptionGroup var database: DatabaseOption

    @Option(help: "The stored spec's name.", transform: Spec.normalizedName)
    var name: String

    @Option(parsing: .unconditional, help: "The section to write to.")
    var section: Int

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        try Self.validate(name: name, section: section)
    }

    /// The checks of `--name` and `--section`.
    static func validate(name: String, section: Int) throws {
        try ArgumentCheck.index(section, flag: "--section")
        try ArgumentCheck.specName(name, flag: "--name")
    }

    /// Runs `body` on the store, errors naming `file`, and prints what it
    /// did to each layout unless `--quiet`.
    func write(file: String, _ body: (LayoutStore) async throws -> UpdateReport) async throws {
        try await Self.write(db: database.db, name: name, quiet: quiet, file: file, body)
    }

    /// The same for the store `db` and the spec `name`.
    static func write(db: String, name: String, quiet: Bool, file: String, _ body: (LayoutStore) async throws -> UpdateReport) async throws {
        let store = try await StoreFile.openExisting(db)
        defer { store.close() }
        let report = try await reportingErrors(file: file) { try await body(store) }
        if !quiet {
            for layout in report.layouts {
                print("\(name) @ \(JSONWriter.format(layout.crossExtent)): \(UpdateSummary.describe(layout))")
            }
        }
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
