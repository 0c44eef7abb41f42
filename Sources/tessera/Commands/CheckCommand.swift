import ArgumentParser
import TesseraLayout
import TesseraSQLite

/// `tessera check --db FILE [--repair]`: read everything the store keeps and check it.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store: SQLite's integrity, the R*Tree against the directory, every spec and every layout's cells, "
            + "and every row's checksum.",
        discussion: """
            Prints what it checked and every problem found, one per line; exits 1 when it found any. \
            Without --repair it opens the store read-only and writes nothing. With --repair, layouts found damaged \
            are marked stale (computed again from their specs when next used) and listed; a damaged spec is only \
            reported, never guessed.
            """
    )

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Mark the damaged layouts stale, so that they are computed again from their specs when next used.")
    var repair = false

    func run() async throws {
        let store = try await repair ? database.open() : database.openForReading()
        defer { store.close() }
        let report = try await reportingErrors { try await store.check(repair: repair) }
        for problem in report.problems { print("problem: \(problem)") }
        for layout in report.markedStale { print("repaired: \(layout)") }
        print("checked \(counted(report.specsChecked, "spec")), \(counted(report.layoutsChecked, "layout")), "
            + "\(counted(report.groupsChecked, "cell group")), every row's checksum "
            + "(\(counted(report.checksumMismatches, "mismatch", plural: "mismatches"))): "
            + (report.isHealthy ? "no problems" : counted(report.problems.count, "problem")))
        if !report.isHealthy { throw ExitCode.failure }
    }
}
