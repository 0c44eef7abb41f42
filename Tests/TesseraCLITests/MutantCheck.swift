import Foundation
@testable import TesseraCommandSupport
@testable import TesseraLayout
import TesseraTestSupport
@testable import tessera

/// Runs one mutant through what `tessera layout SPEC --width 390` does, in
/// this process: read the spec file, lay it out, and on failure print the
/// CLI's one error line. A trap would end the test process; everything
/// else that is wrong is a ``problems`` entry.
struct MutantCheck {
    /// How a mutant ended.
    enum Outcome: Equatable {
        /// It was read and laid out (see ``MutantCheck/cut``).
        case laidOut
        /// It was refused with this error line.
        case refused(line: String)
    }

    /// The most items the test lays out per mutant (a debug build, 20,000 mutants).
    static let itemBound = 2_000
    /// The longest error line the test accepts, in characters.
    static let maximumLineLength = 300

    /// `--width 390` and `--height 390`, parsed once: ArgumentParser takes
    /// longer to parse them than the engine to read and lay out a mutant.
    static let width = try? ExtentOptions.parse(["--width", "390"])
    static let height = try? ExtentOptions.parse(["--height", "390"])

    let directory: URL
    var specPath: String { directory.appendingPathComponent("spec.json").path }
    var itemsPath: String { directory.appendingPathComponent("items.ndjson").path }

    var outcome: Outcome = .laidOut
    var problems: [String] = []
    /// The command line whose error line ``outcome`` holds.
    private(set) var arguments: [String] = []
    /// The spec held more than ``itemBound`` items: a cut copy was laid out.
    private(set) var cut = false

    /// Writes `mutant` into `directory` and runs it.
    static func run(_ mutant: SpecMutant, in directory: URL) throws -> MutantCheck {
        var check = MutantCheck(directory: directory)
        try write(mutant.spec, to: check.specPath)
        if let items = mutant.items {
            try write(items, to: check.itemsPath)
        } else {
            unlink(check.itemsPath)
        }
        check.run()
        return check
    }

    /// Writes `bytes` to the file at `path` with stdio: Data.write syncs
    /// the file to disk, which would cost more than the rest of the check.
    private static func write(_ bytes: [UInt8], to path: String) throws {
        guard let file = fopen(path, "wb") else { throw CocoaError(.fileWriteUnknown) }
        defer { fclose(file) }
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// The arguments of the CLI run this check stands for.
    func commandLine(for axis: Axis) -> [String] {
        ["layout", specPath, axis == .vertical ? "--width" : "--height", "390"]
    }

    private mutating func run() {
        let spec: Spec
        do {
            spec = try Spec(contentsOfFile: specPath)
        } catch let error as SpecError {
            refused(error, arguments: commandLine(for: .vertical))
            return
        } catch {
            problems.append("reading threw \(type(of: error)), not a SpecError: \(error)")
            return
        }
        let known = spec.sections.reduce(0) { $0 + ($1.items.knownCount ?? 0) }
        if known > Self.itemBound {
            cut = true
            var capped = spec
            for index in capped.sections.indices { capped.sections[index].items = capped.sections[index].items.capped(at: Self.itemBound) }
            do {
                check(try LayoutEngine().layout(capped, crossExtent: 390))
            } catch let error as SpecError {
                refused(error, arguments: commandLine(for: spec.axis))
            } catch {
                problems.append("laying out threw \(type(of: error)), not a SpecError: \(error)")
            }
            return
        }
        // The command's own path, from the file: ExtentOptions.layout as `tessera layout` runs it.
        let arguments = commandLine(for: spec.axis)
        do {
            guard let options = spec.axis == .vertical ? Self.width : Self.height else {
                problems.append("ArgumentParser refused \(arguments)")
                return
            }
            check(try options.layout(specFile: specPath, command: "layout"))
        } catch let error as CommandError {
            do {
                _ = try LayoutEngine().layout(spec, crossExtent: 390)
                problems.append("the command failed but the engine lays the spec out: \(error)")
            } catch let cause as SpecError {
                refused(cause, arguments: arguments, commandError: error)
            } catch {
                problems.append("laying out threw \(type(of: error)), not a SpecError: \(error)")
            }
        } catch {
            problems.append("the command threw \(type(of: error)): \(error)")
        }
    }

    /// Records the line the CLI prints for `error` and checks it: one line
    /// starting `error:`, no control character, shorter than the limit, with
    /// a JSON path unless the spec is not JSON (then a line and column).
    private mutating func refused(_ error: SpecError, arguments: [String], commandError: Error? = nil) {
        let thrown = commandError ?? Self.commandError(for: error, file: specPath)
        guard let line = Tessera.errorLine(for: thrown, arguments: arguments) else {
            problems.append("no error line for \(error)")
            return
        }
        outcome = .refused(line: line)
        self.arguments = arguments
        if !line.hasPrefix("error: ") { problems.append("the line does not start with 'error: '") }
        if let scalar = line.unicodeScalars.first(where: \.breaksLines) {
            problems.append("the line holds U+\(scalar.hexDigits)")
        }
        if line.count >= Self.maximumLineLength { problems.append("the line has \(line.count) characters") }
        if error.path.isEmpty {
            let syntax = error.reason.range(of: #"is not valid JSON: line [0-9]+, column [0-9]+: "#, options: .regularExpression) != nil
            let root = error.reason.hasPrefix("a spec must be a JSON object")
            if !syntax && !root { problems.append("an error without a JSON path that is not a JSON syntax error") }
        } else {
            if !line.contains(": \(error.path): ") { problems.append("the line does not show the path \(error.path)") }
            if error.reason.contains("is not valid JSON"),
               error.reason.range(of: #"line [0-9]+ of '.*' is not valid JSON: .* at column [0-9]+$"#, options: .regularExpression) == nil {
                problems.append("an items file's syntax error without its line and column")
            }
        }
        if let commandError, "\(commandError)" != "\(Self.commandError(for: error, file: specPath))" {
            problems.append("the command's error \(commandError) is not the engine's \(error)")
        }
    }

    /// What the CLI throws for `error` from the spec file at `file`.
    static func commandError(for error: SpecError, file: String) -> Error {
        do {
            try reportingErrors(file: file) { () throws -> Void in throw error }
            return error
        } catch {
            return error
        }
    }

    /// Every frame of a laid-out mutant is finite.
    private mutating func check(_ result: LayoutResult) {
        if let element = result.elements.first(where: { !($0.frame.x.isFinite && $0.frame.y.isFinite && $0.frame.width.isFinite && $0.frame.height.isFinite) }) {
            problems.append("laid out with a frame that is not finite: \(element)")
        }
    }
}
