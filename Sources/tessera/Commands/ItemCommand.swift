import ArgumentParser
import TesseraLayout
import TesseraStore

/// `tessera item --db FILE --name N --width W --section S --item I`.
struct ItemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "item", abstract: "Print one item's cell from a store.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "The stored spec's name.")
    var name: String

    @OptionGroup var extent: ExtentOptions

    @Option(parsing: .unconditional, help: "The section index.")
    var section: Int

    @Option(parsing: .unconditional, help: "The item index within the section.")
    var item: Int

    @Option(help: "Output format: table (default on a terminal), json or ndjson.")
    var format: DisplayFormat?

    func validate() throws {
        try ArgumentCheck.index(section, flag: "--section")
        try ArgumentCheck.index(item, flag: "--item")
    }

    func run() throws {
        let store = try database.open()
        let (layout, element) = try reportingErrors { () -> (StoredLayout, LayoutElement?) in
            guard let axis = try store.specs().first(where: { $0.name == name })?.axis else { throw StoreError.noSuchSpec(name: name) }
            let crossExtent = try extent.crossExtent(for: axis)
            let layout = try store.layout(name: name, crossExtent: crossExtent).layout
            return (layout, try store.element(name: name, crossExtent: crossExtent, section: section, item: item))
        }
        guard let element else {
            throw CommandError("\"\(name)\" has no item \(item) in section \(section) (it has \(layout.sectionCount) sections)")
        }
        ElementPrinter(format: DisplayFormat.resolve(format)).print(summary: layout.summary, elements: [element])
    }
}
