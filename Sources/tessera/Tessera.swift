import ArgumentParser
import TesseraBackends
import TesseraCommandSupport
import TesseraSQLite
import TesseraStore

/// The `tessera` command: compute, store and query collection-view layouts.
@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Compute collection-view layouts and answer rect queries.",
        discussion: "Errors are one line on standard error, with a non-zero exit status.",
        version: TesseraVersion.current,
        subcommands: [
            LayoutCommand.self, PrecomputeCommand.self, MergeCommand.self, AppendCommand.self, ResizeCommand.self, QueryCommand.self, ItemCommand.self, ListCommand.self,
            SpecCommand.self, InvalidateCommand.self, DeleteCommand.self, PruneCommand.self, CheckCommand.self, ExportCommand.self,
            RenderCommand.self, DemoCommand.self,
        ]
    )

    /// Runs the command named on the command line. ArgumentParser's own
    /// `main()` prints usage errors as three or four lines; here every
    /// failure is one line on standard error, while `--help` still prints
    /// the whole help on standard output and exits 0. The commands that
    /// use a store are async (``AsyncParsableCommand``); the others run as they are.
    /// The lines a short process runs most (``QuickCommand``) skip
    /// ArgumentParser's reflection, meaning and printing the same.
    static func main() async {
        LayoutStore.turnOffSQLiteMemoryStatistics()
        do {
            if let quick = QuickCommand.parse(Array(CommandLine.arguments.dropFirst())) {
                try await quick.run()
                return
            }
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitReporting(error, arguments: Array(CommandLine.arguments.dropFirst()))
        }
    }
}
