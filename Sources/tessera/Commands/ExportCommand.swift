import TesseraLayout
import ArgumentParser
import TesseraSQLite

/// `tessera export --db FILE --out ARTIFACT [--replace]`: a compact, checked
/// copy of a store, ready to ship and open read-only.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a compact, checked copy of a store that opens read-only anywhere (no -wal or -shm file needed).",
        discussion: """
            Reads the store read-only, copies one snapshot of it into a single file in rollback-journal mode, \
            checks the copy (every checksum included), and only then puts it at --out. An existing --out is \
            refused unless --replace is given.
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "The file to write the copy to.")
    var out: String

    @Flag(help: "Replace --out if it exists.")
    var replace = false

    func run() async throws {
        let store = try database.openForReading()
        defer { store.close() }
        let report = try await reportingErrors { try await store.export(to: out, replacing: replace) }
        print("exported \(counted(report.specsChecked, "spec")), \(counted(report.layoutsChecked, "layout")) to \(out.quotedPathForMessage): checked, no problems")
    }
}
