import Foundation
import Testing
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// `tessera spec` prints a stored spec that reads back; `tessera delete`
/// removes a spec and its layouts, where `invalidate` and `prune` keep the spec.
@Suite("tessera spec and tessera delete")
struct DeleteAndSpecCommandTests {
    static let carousels = CLIRunner.repository.appendingPathComponent("Examples/carousel-feed.json").path

    @Test("spec prints the stored spec on one line; stored again elsewhere it lays out the same frames")
    func printsTheStoredSpec() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let first = directory.appendingPathComponent("first.sqlite").path
            let second = directory.appendingPathComponent("second.sqlite").path
            let items = try CLIRunner.file("items.ndjson", in: directory, "{\"size\": [30, 40]}\n{\"size\": [50, 20]}\n")
            let withFile = try CLIRunner.file("file.json", in: directory, """
                {"format": 1, "sections": [{"layout": {"kind": "flow", "itemSpacing": 3}, "items": {"file": "items.ndjson"}}]}
                """)
            for (file, name) in [(Self.carousels, "shelves"), (withFile, "from-file")] {
                let stored = try CLIRunner.run(["precompute", file, "--db", first, "--name", name, "--width", "390", "--quiet"])
                #expect(stored.status == 0, "\(stored.stderr)")
                let printed = try CLIRunner.run(["spec", "--db", first, "--name", name])
                #expect(printed.status == 0, "\(printed.stderr)")
                #expect(printed.stdout.split(separator: "\n").count == 1)
                let spec = try Spec(jsonText: printed.stdout)
                #expect(spec.name == name)
                if file == withFile {
                    // An items file is stored by its absolute path, read again whenever the layout is computed.
                    #expect(printed.stdout.contains(JSONWriter.quote(items)), "\(printed.stdout)")
                } else {
                    #expect(spec.canonicalText == (try Spec(contentsOfFile: file).canonicalText))
                }
                let copy = try CLIRunner.file("\(name).json", in: directory, printed.stdout)
                #expect(try CLIRunner.run(["precompute", copy, "--db", second, "--width", "390", "--quiet"]).status == 0)
                let rect = ["--width", "390", "--rect", "0,0,390,5000", "--format", "ndjson"]
                let original = try CLIRunner.run(["query", "--db", first, "--name", name] + rect)
                #expect(original.status == 0 && !original.stdout.isEmpty)
                #expect(try CLIRunner.run(["query", "--db", second, "--name", name] + rect).stdout == original.stdout)
            }
            #expect(try CLIRunner.failure(["spec", "--db", first, "--name", "nope"])
                == "error: no spec named \"nope\" is stored; save or precompute it first")
        }
    }

    @Test("delete removes the spec and every layout of it; an unknown name is an error; the other specs stay")
    func deletes() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("feeds.sqlite").path
            for name in ["gone", "kept"] {
                let stored = try CLIRunner.run(["precompute", Self.carousels, "--db", database, "--name", name, "--width", "390", "--width", "430", "--quiet"])
                #expect(stored.status == 0, "\(stored.stderr)")
            }
            let deleted = try CLIRunner.run(["delete", "--db", database, "--name", "gone"])
            #expect(deleted.status == 0, "\(deleted.stderr)")
            #expect(deleted.stdout == "deleted \"gone\" and 2 layouts\n")
            let store = try LayoutStore(path: database)
            defer { store.close() }
            #expect(try await store.specs().map(\.name) == ["kept"])
            #expect(try await store.layouts().map(\.specName) == ["kept", "kept"])
            #expect(try CLIRunner.failure(["delete", "--db", database, "--name", "gone"])
                == "error: no spec named \"gone\" is stored; save or precompute it first")
            #expect(try CLIRunner.failure(["delete", "--db", database, "--name", "bad\nname"]).hasPrefix("error: a spec name must not contain control characters"))
        }
    }
}
