import ArgumentParser
import TesseraLayout
import TesseraSQLite

/// `tessera check --db FILE`: read everything the store keeps and check it.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store: SQLite's integrity, the R*Tree against the directory, every spec and every layout's cells.",
        discussion: "Prints what it checked and every problem found, one per line; exits 1 when it found any."
    )

    @OptionGroup var database: DatabaseOption

    func run() throws {
        let store = try database.open()
        let report = try reportingErrors { try store.check() }
        for problem in report.problems { print("problem: \(problem)") }
        print("checked \(counted(report.specsChecked, "spec")), \(counted(report.layoutsChecked, "layout")), "
            + "\(counted(report.groupsChecked, "cell group")): "
            + (report.isHealthy ? "no problems" : counted(report.problems.count, "problem")))
        if !report.isHealthy { throw ExitCode.failure }
    }
}
