import Foundation
import ArgumentParser

extension ParsableCommand {
    /// Exits for `error`, a failure of this root command (`tessera`,
    /// `tessera-bench`): help and version requests print in full on standard
    /// output (exit 0); a failure prints ``errorLine(for:arguments:)`` on
    /// standard error and exits with ArgumentParser's code (64 for a usage
    /// error, 1 otherwise).
    package static func exitReporting(_ error: Error, arguments: [String]) -> Never {
        let code = exitCode(for: error)
        guard code != .success, let line = errorLine(for: error, arguments: arguments) else { exit(withError: error) }
        printError(line)
        // An ExitCode prints nothing: only the status is left to set.
        exit(withError: code)
    }

    /// The one line a failure prints, `error: ` and the message, with a
    /// pointer to the command's help for usage errors; nil when the error
    /// has no message (a bare exit code).
    static func errorLine(for error: Error, arguments: [String]) -> String? {
        let words = message(for: error).split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        var line = words.filter { !$0.isEmpty }.joined(separator: " ")
        guard let first = line.first else { return nil }
        // ArgumentParser capitalizes its messages; Tessera's own start in lower case.
        if let second = line.dropFirst().first, second.isLowercase {
            line = first.lowercased() + line.dropFirst()
        }
        if exitCode(for: error) == .validationFailure {
            line += " (see '\(helpCommand(for: arguments))')"
        }
        return "error: " + shortened(line)
    }

    /// The most characters of an error line after `error: `. Values, paths
    /// and JSON paths in messages are shortened where they are quoted; what
    /// is still longer (a message of ArgumentParser's quoting a long
    /// argument) keeps its first 200 and last 91 characters around `…`.
    static var lineLimit: Int { 292 }

    /// `line`, cut to ``lineLimit`` characters around `…` when longer.
    static func shortened(_ line: String) -> String {
        guard line.count > lineLimit else { return line }
        return line.prefix(200) + "…" + line.suffix(lineLimit - 201)
    }

    /// `ROOT SUBCOMMAND --help` for the subcommand the arguments name,
    /// else `ROOT --help` (`tessera`, `tessera-bench`).
    static func helpCommand(for arguments: [String]) -> String {
        let root = configuration.commandName ?? "tessera"
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let first = arguments.first, names.contains(first) else { return "\(root) --help" }
        return "\(root) \(first) --help"
    }
}
