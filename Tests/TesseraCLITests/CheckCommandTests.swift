import Foundation
import Testing
import TesseraLayout
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("tessera check")
struct CheckCommandTests {
    @Test("a healthy store checks clean (exit 0); a damaged one names the damage and exits 1")
    func check() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let specPath = try CLIRunner.file("feed.json", in: directory,
                #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 4}, "items": {"count": 1000, "cycle": [{}]}}]}"#)
            let database = directory.appendingPathComponent("feed.sqlite").path
            #expect(try CLIRunner.run(["precompute", specPath, "--db", database, "--width", "390", "--width", "820", "--quiet"]).status == 0)
            let clean = try CLIRunner.run(["check", "--db", database])
            #expect(clean.status == 0, "\(clean.stderr)")
            #expect(clean.stdout == "checked 1 spec, 2 layouts, 8 cell groups, every row's checksum (0 mismatches): no problems\n")

            let connection = try Connection(path: database, options: .store)
            try connection.execute("UPDATE cell_group_directory SET max_scroll = max_scroll + 1 WHERE first_item = 500 AND layout_id = (SELECT min(id) FROM layouts)")
            connection.close()
            let damaged = try CLIRunner.run(["check", "--db", database])
            #expect(damaged.status == 1)
            // The bounds no longer give the stored reach of that group (items 500…749, the last of the slot) either.
            #expect(damaged.stdout == "problem: store: 1 cell groups' reach disagrees with the bounds of their slot's groups\n"
                + "problem: spec \"feed\" at 390: section 0: the cell group of items 500… has stored bounds that are not its frames' union\n"
                // The summary of the layout's directory was written from the rows before their damage.
                + "problem: spec \"feed\" at 390: its directory summary does not hold what its section and cell group rows hold\n"
                + "checked 1 spec, 2 layouts, 8 cell groups, every row's checksum (0 mismatches): 3 problems\n")
        }
    }
}
