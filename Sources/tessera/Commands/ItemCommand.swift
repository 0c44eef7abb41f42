import ArgumentParser
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera item --db FILE --name N --width W --section S --item I`.
struct ItemCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Print one item's cell from a store (computing and storing the layout first when it is missing or stale)."
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "The stored spec's name.", transform: Spec.normalizedName)
    var name: String

    @OptionGroup var extent: ExtentOptions

    @OptionGroup var direction: DirectionOption

    @OptionGroup var offset: OffsetOption

    @Option(parsing: .unconditional, help: "The section index.")
    var section: Int

    @Option(parsing: .unconditional, help: "The item index within the section.")
    var item: Int

    @Option(help: "Output format: table (default on a terminal), json or ndjson.")
    var format: DisplayFormat?

    func validate() throws {
        try ArgumentCheck.index(section, flag: "--section")
        try ArgumentCheck.index(item, flag: "--item")
        try ArgumentCheck.specName(name, flag: "--name")
    }

    func run() async throws {
        let (store, layout) = try await StoreFile.freshLayout(database.db, name: name, extent: extent, command: "item")
        defer { store.close() }
        let offsets = try offset.offsets
        let answer: LayoutAnswer? = try await reportingErrors {
            do {
                return try await store.answer(
                    .item(section: section, item: item), name: name, crossExtent: layout.crossExtent, direction: direction.direction, offsets: offsets
                )
            } catch let error as StoreError where error.code == .notFound && error.section != nil {
                return nil
            }
        }
        guard let answer else { throw try await missingItem(store: store, layout: layout) }
        ElementPrinter(format: DisplayFormat.resolve(format)).print(summary: answer.layout.summary, orthogonal: answer.orthogonal, elements: answer.elements)
    }

    /// Says what there is instead: the sections, or the section's items.
    private func missingItem(store: LayoutStore, layout: StoredLayout) async throws -> CommandError {
        guard section < layout.sectionCount else {
            return CommandError("\"\(name)\" has no section \(section) (it has \(counted(layout.sectionCount, "section")))")
        }
        let items = try await reportingErrors { try await store.spec(named: name)?.sections[section].items }
        guard let count = items.flatMap(itemCount) else {
            return CommandError("\"\(name)\" has no item \(item) in section \(section)")
        }
        return CommandError("\"\(name)\" has no item \(item) in section \(section) (it has \(counted(count, "item")))")
    }

    /// How many items a section has; items files are counted by reading them.
    private func itemCount(_ items: ItemSource) -> Int? {
        if let known = items.knownCount { return known }
        var count = 0
        guard (try? items.forEach(section: section) { _, _, _ in count += 1 }) != nil else { return nil }
        return count
    }
}
