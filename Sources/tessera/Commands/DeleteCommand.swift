import ArgumentParser
import TesseraLayout
import TesseraStore

/// `tessera delete --db FILE --name N`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a stored spec and all its layouts.",
        discussion: """
            Beside it: invalidate marks layouts stale and keeps the spec (they are computed again on next use); \
            prune deletes stale layouts and gives their space back. An unknown name is an error.
            """
    )

    @OptionGroup var database: DatabaseOption
    @OptionGroup var spec: SpecNameOption

    func run() async throws {
        let store = try await database.open()
        defer { store.close() }
        let name = spec.name
        let layouts = try await reportingErrors { () -> Int in
            let count = try await store.layouts(name: name).count
            guard try await store.deleteSpec(named: name) else { throw StoreError.noSuchSpec(name: name) }
            return count
        }
        print("deleted \"\(name)\" and \(counted(layouts, "layout"))")
    }
}

/// `tessera spec --db FILE --name N`.
struct SpecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spec",
        abstract: "Print a stored spec as JSON (one line), as GET /v1/feeds/{name}/spec answers.",
        discussion: "The spec reads back: precompute takes the output as it is. An items file is printed as the absolute path it was stored with."
    )

    @OptionGroup var database: DatabaseOption
    @OptionGroup var spec: SpecNameOption

    func run() async throws {
        let store = try await database.openForReading()
        defer { store.close() }
        let name = spec.name
        let text = try await reportingErrors { () -> String in
            guard let text = try await store.specJSON(named: name) else { throw StoreError.noSuchSpec(name: name) }
            return text
        }
        print(text)
    }
}
