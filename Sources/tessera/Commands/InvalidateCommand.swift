import ArgumentParser
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera invalidate --db FILE --name N [--width W]`.
struct InvalidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invalidate",
        abstract: "Mark a spec's layouts stale (all, or one width); they are recomputed on next use.",
        discussion: "A --width at which no layout is stored is an error that names the stored widths."
    )

    @OptionGroup var database: DatabaseOption
    @OptionGroup var spec: SpecNameOption

    @Option(parsing: .unconditional, help: "Only the layout at this width (or height, for a horizontal spec).", transform: ArgumentCheck.number)
    var width: Double?

    var name: String { spec.name }

    func validate() throws {
        if let width { try ArgumentCheck.extent(width, flag: "--width") }
    }

    func run() async throws {
        let store = try await database.open()
        defer { store.close() }
        let count = try await reportingErrors { () -> Int in
            if let width { try await checkStored(width, in: store) }
            return try await store.invalidate(name: name, crossExtent: width)
        }
        print("\(counted(count, "layout")) of \"\(name)\" marked stale")
    }

    /// Marking nothing stale would look like success when the width is mistyped.
    private func checkStored(_ width: Double, in store: LayoutStore) async throws {
        let spec = try await store.requiredSpec(named: name)
        let stored = try await store.layouts(name: name).map(\.crossExtent)
        guard !stored.contains(width) else { return }
        let noun = spec.axis == .vertical ? "width" : "height"
        guard !stored.isEmpty else { throw CommandError("\"\(name)\" has no stored layouts") }
        throw CommandError("\"\(name)\" has no layout at \(noun) \(JSONWriter.format(width)); stored \(noun)s: \(stored.map { JSONWriter.format($0) }.joined(separator: ", "))")
    }
}

/// `tessera prune --db FILE`.
struct PruneCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "prune", abstract: "Delete stale layouts and give their space back.")

    @OptionGroup var database: DatabaseOption

    func run() async throws {
        let store = try await database.open()
        defer { store.close() }
        let report = try await reportingErrors { try await store.prune() }
        // A PostgreSQL store's tables keep the space for reuse (VACUUM, not a rewrite).
        let kept = StoreLocation.isPostgresURL(database.db) ? "tables" : "file"
        print("deleted \(counted(report.layoutsDeleted, "stale layout")); \(kept) \(report.bytesBefore) → \(report.bytesAfter) bytes")
    }
}
