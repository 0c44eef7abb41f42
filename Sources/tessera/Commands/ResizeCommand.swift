import ArgumentParser
import TesseraLayout
import TesseraStore

/// `tessera resize --db STORE --name N --section S SIZES.ndjson`.
struct ResizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resize",
        abstract: "Replace fields of stored items (measured sizes: one {\"item\": i, \"length\": L} per line); every stored width is laid out again from the first changed item.",
        discussion: """
            Each line names an item of the section and the fields to replace (any item field: length, aspectRatio, size, …); \
            null removes a field. Changes apply in order: a later line's fields replace an earlier line's. Every stored width \
            goes on from its latest saved state at or before the first changed item, in one transaction: on any error nothing changes.
            """
    )

    @OptionGroup var target: SectionTarget

    @Argument(help: "The changes: an NDJSON file (or - for standard input), one {\"item\": i, …fields} per line.")
    var changes: String

    func run() async throws {
        let read = try reportingErrors(file: changes) {
            try ItemChange.changes(ndjson: FileBytes.read(changes, rules: .changesFile, errorPath: ""), section: target.section)
        }
        let started = ProgressBar.now()
        try await target.write(file: changes) { store in try await store.resize(name: target.name, section: target.section, changes: read) }
        guard !target.quiet else { return }
        print(String(format: "changed %d items of section %d in %.3fs", Set(read.map(\.item)).count, target.section, ProgressBar.now() - started))
    }
}
