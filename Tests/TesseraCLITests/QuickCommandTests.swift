import Foundation
import Testing
@testable import tessera

@Suite("quick command lines: read without ArgumentParser, exactly as ArgumentParser reads them")
struct QuickCommandTests {
    /// What ArgumentParser makes of `arguments`: the append it runs, or nil
    /// when it does not parse them into an `append`.
    private func parsed(_ arguments: [String]) -> AppendRequest? {
        guard let command = try? Tessera.parseAsRoot(arguments), let append = command as? AppendCommand else { return nil }
        let target = append.target
        return AppendRequest(db: target.database.db, name: target.name, section: target.section, quiet: target.quiet, items: append.items)
    }

    static let quickForms: [[String]] = [
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "--quiet", "items.ndjson"],
        ["append", "items.ndjson", "--quiet", "--section", "0", "--name", "feed", "--db", "postgres://u@h/d"],
        ["append", "--name", "feed-2", "--db", "dir/s.sqlite", "items.ndjson", "--section", "+12"],
    ]

    @Test("each quick form is the append ArgumentParser parses from it", arguments: quickForms)
    func sameAsArgumentParser(arguments: [String]) throws {
        let quick = try #require(QuickCommand.parse(arguments))
        let expected = try #require(parsed(arguments))
        #expect(quick == .append(expected))
    }

    static let leftToArgumentParser: [[String]] = [
        ["append", "--db=s.sqlite", "--name", "feed", "--section", "3", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "-1", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "x", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "--quiet", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "", "--section", "3", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "-feed", "--section", "3", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--name", "other", "--section", "3", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "--quiet", "--quiet", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "items.ndjson", "more.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3"],
        ["append", "--db", "s.sqlite", "--name", "feed", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "--", "items.ndjson"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "-"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "items.ndjson", "--help"],
        ["append", "--db", "s.sqlite", "--name", "feed", "--section", "3", "items.ndjson", "--nosuch"],
        ["append", "--db"],
        ["append"],
        ["resize", "--db", "s.sqlite", "--name", "feed", "--section", "3", "changes.ndjson"],
        ["--version", "--help"],
        ["--help"],
        [],
    ]

    @Test("anything else is left to ArgumentParser", arguments: leftToArgumentParser)
    func leftAlone(arguments: [String]) {
        #expect(QuickCommand.parse(arguments) == nil)
    }

    @Test("--version alone is the quick version")
    func version() {
        #expect(QuickCommand.parse(["--version"]) == .version)
    }

    @Test("a section or name that fails its check is left to ArgumentParser, which words the error")
    func failedChecks() throws {
        for arguments in [
            ["append", "--db", "s.sqlite", "--name", "feed", "--section", "-1", "items.ndjson"],
            ["append", "--db", "s.sqlite", "--name", "", "--section", "3", "items.ndjson"],
        ] {
            #expect(QuickCommand.parse(arguments) == nil)
            #expect(parsed(arguments) == nil, "ArgumentParser refuses \(arguments) too")
        }
    }
}
