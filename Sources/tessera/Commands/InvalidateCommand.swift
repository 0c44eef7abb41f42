import ArgumentParser
import TesseraLayout
import TesseraStore

/// `tessera invalidate --db FILE --name N [--width W]`.
struct InvalidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "invalidate", abstract: "Mark a spec's layouts stale (all, or one width); they are recomputed on next use.")

    @OptionGroup var database: DatabaseOption

    @Option(help: "The stored spec's name.")
    var name: String

    @Option(parsing: .unconditional, help: "Only the layout at this width (or height, for a horizontal spec).")
    var width: Double?

    func validate() throws {
        if let width { try ArgumentCheck.extent(width, flag: "--width") }
    }

    func run() throws {
        let store = try database.open()
        let count = try reportingErrors { try store.invalidate(name: name, crossExtent: width) }
        print("\(count) layout\(count == 1 ? "" : "s") of \"\(name)\" marked stale")
    }
}

/// `tessera prune --db FILE`.
struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "prune", abstract: "Delete stale layouts and give their space back.")

    @OptionGroup var database: DatabaseOption

    func run() throws {
        let store = try database.open()
        let report = try reportingErrors { try store.prune() }
        print("deleted \(report.layoutsDeleted) stale layout\(report.layoutsDeleted == 1 ? "" : "s"); file \(report.bytesBefore) → \(report.bytesAfter) bytes")
    }
}
