import ArgumentParser
import Foundation
@testable import TesseraCommandSupport
import Testing
import TesseraLayout
@testable import tessera

@Suite("errors are one line on standard error; help is whole on standard output")
struct ErrorLineTests {
    static let flow = CLIRunner.repository.appendingPathComponent("Examples/flow.json").path

    /// The line `tessera` prints for the error that parsing `arguments` throws.
    private func line(parsing arguments: [String]) -> String? {
        do {
            _ = try Tessera.parseAsRoot(arguments)
            return nil
        } catch {
            return Tessera.errorLine(for: error, arguments: arguments)
        }
    }

    @Test("ArgumentParser's usage errors become one line that points to the command's help")
    func usageErrors() async {
        #expect(line(parsing: ["layout"]) == "error: missing expected argument '<spec>' (see 'tessera layout --help')")
        #expect(line(parsing: ["layout", "f.json", "--widht", "5"]) == "error: unknown option '--widht'. Did you mean '--width'? (see 'tessera layout --help')")
        #expect(line(parsing: ["nosuch"]) == "error: unexpected argument 'nosuch' (see 'tessera --help')")
        #expect(line(parsing: ["query", "--spec", "f.json", "--width", "390"]) == "error: give exactly one of --rect or --viewport (see 'tessera query --help')")
        // A multi-line message is joined into one.
        #expect(Tessera.errorLine(for: CommandError("first\n  second"), arguments: []) == "error: first second")
        #expect(Tessera.errorLine(for: ExitCode(3), arguments: []) == nil)
    }

    @Test("end to end: a usage error prints one line and exits 64; --help prints the help and exits 0")
    func endToEnd() async throws {
        let unknown = try CLIRunner.run(["layout", Self.flow, "--widht", "390"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr == "error: unknown option '--widht'. Did you mean '--width'? (see 'tessera layout --help')\n")
        #expect(try CLIRunner.failure(["layout", Self.flow, "--width"]) == "error: missing value for '--width <width>' (see 'tessera layout --help')")
        #expect(try CLIRunner.failure(["layout", Self.flow, "--width", "390", "--format", "xml"]).hasPrefix("error: the value 'xml' is invalid for '--format <format>'"))
        #expect(try CLIRunner.failure(["layout", "/nonexistent/spec.json", "--width", "390"]).hasPrefix("error: /nonexistent/spec.json: "))
        for arguments in [["layout", "--help"], ["help", "query"], ["--help"]] {
            let help = try CLIRunner.run(arguments)
            #expect(help.status == 0, "\(arguments)")
            #expect(help.stderr.isEmpty, "\(arguments): \(help.stderr)")
            #expect(help.stdout.contains("USAGE: tessera"), "\(arguments): \(help.stdout)")
            #expect(help.stdout.split(separator: "\n").count > 5, "\(arguments): the whole help")
        }
    }

    @Test("negative numbers reach the commands' range checks, which name the flag")
    func negativeNumbers() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let database = directory.appendingPathComponent("new.sqlite").path
            let items = try CLIRunner.file("items.ndjson", in: directory, "{}\n")
            let cases: [([String], String)] = [
                (["layout", Self.flow, "--width", "-5"], "error: --width must be positive, got -5 (see 'tessera layout --help')"),
                (["layout", Self.flow, "--width", "0"], "error: --width must be positive, got 0 (see 'tessera layout --help')"),
                (["layout", Self.flow, "--width", "1e400"], "error: --width must be a finite number, got inf (see 'tessera layout --help')"),
                // Numbers are read as the server reads them: as JSON writes them.
                (["layout", Self.flow, "--width", "inf"],
                 "error: the value 'inf' is invalid for '--width <width>': not a number as JSON writes one (390, 390.5, 1e3) (see 'tessera layout --help')"),
                (["layout", Self.flow, "--width", "0x10"],
                 "error: the value '0x10' is invalid for '--width <width>': not a number as JSON writes one (390, 390.5, 1e3) (see 'tessera layout --help')"),
                (["precompute", Self.flow, "--db", database, "--width", "+390"],
                 "error: the value '+390' is invalid for '--width <width>': not a number as JSON writes one (390, 390.5, 1e3) (see 'tessera precompute --help')"),
                (["invalidate", "--db", database, "--name", "flow", "--width", "390."],
                 "error: the value '390.' is invalid for '--width <width>': not a number as JSON writes one (390, 390.5, 1e3) (see 'tessera invalidate --help')"),
                (["query", "--spec", Self.flow, "--width", "390", "--rect", "0x0,0,1,1"],
                 "error: the value '0x0,0,1,1' is invalid for '--rect <rect>': \"0x0\" is not a finite number (see 'tessera query --help')"),
                (["query", "--spec", Self.flow, "--height", "-1", "--rect", "0,0,1,1"], "error: --height must be positive, got -1 (see 'tessera query --help')"),
                (["precompute", Self.flow, "--db", database, "--width", "390", "--width", "-3"], "error: --width must be positive, got -3 (see 'tessera precompute --help')"),
                (["item", "--db", database, "--name", "flow", "--width", "390", "--section", "0", "--item", "-1"], "error: --item must be 0 or more, got -1 (see 'tessera item --help')"),
                (["item", "--db", database, "--name", "flow", "--width", "390", "--section", "-2", "--item", "0"], "error: --section must be 0 or more, got -2 (see 'tessera item --help')"),
                (["append", "--db", database, "--name", "flow", "--section", "-1", items], "error: --section must be 0 or more, got -1 (see 'tessera append --help')"),
                (["invalidate", "--db", database, "--name", "flow", "--width", "-390"], "error: --width must be positive, got -390 (see 'tessera invalidate --help')"),
                (["query", "--spec", Self.flow, "--width", "390", "--rect", "0,0,-1,1"],
                 "error: the value '0,0,-1,1' is invalid for '--rect <rect>': the width and height must not be negative (see 'tessera query --help')"),
                (["query", "--spec", Self.flow, "--width", "390", "--viewport", "0,0,1"],
                 "error: the value '0,0,1' is invalid for '--viewport <viewport>': expected 4 numbers x,y,w,h, got 3 (see 'tessera query --help')"),
                (["render", Self.flow, "--width", "390", "--out", "x.svg", "--range", "-5,-10"],
                 "error: the value '-5,-10' is invalid for '--range <range>': the start must be below the end (see 'tessera render --help')"),
            ]
            for (arguments, expected) in cases {
                #expect(try CLIRunner.failure(arguments, in: directory) == expected, "\(arguments)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["items.ndjson"])
        }
    }

    @Test("a rect, viewport or range with negative coordinates is a valid query")
    func negativeCoordinates() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let layout = try LayoutEngine().layout(Spec(contentsOfFile: Self.flow), crossExtent: 390)
            let rect = Rect(x: -10, y: -100, width: 200, height: 150)
            let query = try CLIRunner.run(["query", "--spec", Self.flow, "--width", "390", "--rect", "-10,-100,200,150", "--format", "ndjson"])
            #expect(query.status == 0, "\(query.stderr)")
            let expected = layout.elements(in: rect)
            #expect(!expected.isEmpty)
            #expect(Array(query.stdout.split(separator: "\n").dropFirst().map(String.init)) == expected.map(\.jsonText))

            let viewport = try CLIRunner.run(["query", "--spec", Self.flow, "--width", "390", "--viewport", "0,-50,390,100", "--format", "ndjson"])
            #expect(viewport.status == 0, "\(viewport.stderr)")
            let visible = layout.visibleElements(viewport: Rect(x: 0, y: -50, width: 390, height: 100))
            #expect(Array(viewport.stdout.split(separator: "\n").dropFirst().map(String.init)) == visible.map(\.jsonText))

            let out = directory.appendingPathComponent("above.svg").path
            let render = try CLIRunner.run(["render", Self.flow, "--width", "390", "--out", out, "--range", "-100,100", "--rect", "-20,-20,100,100"])
            #expect(render.status == 0, "\(render.stderr)")
            let drawn = layout.elements(in: Rect(x: 0, y: -100, width: 390, height: 200)).count
            #expect(render.stderr == "render: \(drawn) elements in \(out)\n")
        }
    }

    @Test("a whole error line stays under 300 characters: long values, file paths and JSON paths are shortened where they are quoted")
    func longLines() async throws {
        // ArgumentParser quotes the argument whole: the line keeps its start and its end.
        let long = String(repeating: "9x", count: 3000)
        let usage = try #require(line(parsing: ["layout", "f.json", "--width", long]))
        #expect(usage.count < 300)
        #expect(usage.hasPrefix("error: the value '9x9x"), "\(usage)")
        #expect(usage.hasSuffix("(see 'tessera layout --help')"), "\(usage)")
        // A store path of 600 characters keeps its start and its file name.
        try await CLIRunner.inTemporaryDirectory { directory in
            let path = directory.appendingPathComponent(String(repeating: "d", count: 200)).path + "/" + String(repeating: "s", count: 400) + ".sqlite"
            let failure = try CLIRunner.failure(["list", "--db", path])
            #expect(failure.count < 300, "\(failure)")
            #expect(failure.hasPrefix("error: no store at '/"), "\(failure)")
            #expect(failure.contains("…"))
            #expect(failure.hasSuffix("sss.sqlite': check the path (precompute creates a store)"), "\(failure)")
        }
        // JSON paths: a long key is cut, a deep path keeps its ends, control characters are escaped.
        let key = String(repeating: "k", count: 5000) + "\n"
        var path = JSONPath.root.appending("sections").appending(0).appending(key)
        #expect(path.description == "sections[0]." + String(repeating: "k", count: 40) + "…")
        #expect(JSONPath.root.appending("a\nb").description == "a\\nb")
        // The cut counts escaped characters: 40 control characters escape to 240.
        let controls = JSONPath.root.appending("sections").appending(0).appending("layout").appending(String(repeating: "\u{1}", count: 40))
        #expect(controls.description == "sections[0].layout." + String(repeating: "\\u0001", count: 6) + "…")
        let unknown = #"{"format":1,"sections":[{"layout":{"kind":"grid","\#(String(repeating: #"\u0001"#, count: 40))":1},"items":[]}]}"#
        #expect(throws: SpecError.self) { try Spec(jsonText: unknown) }
        do { _ = try Spec(jsonText: unknown) } catch let error as SpecError {
            #expect(error.description == "sections[0].layout." + String(repeating: "\\u0001", count: 6)
                + "…: unknown key (this object takes: kind, breakpoints, fraction, aspectRatio, itemSpacing, lineSpacing, alignment)")
        }
        for depth in 0..<100 { path = path.appending("level\(depth)") }
        let deep = path.appending(7).error("must be a number").description
        #expect(deep == "sections[0].….level98.level99[7]: must be a number")
        #expect(JSONPath.root.appending("sections").appending(3).appending("items").appending(17).appending("columns").description
            == "sections[3].items[17].columns")
    }
}
