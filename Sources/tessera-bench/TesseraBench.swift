import ArgumentParser
import Logging
import NIOCore
import NIOPosix
import TesseraBackends
import TesseraCommandSupport
import TesseraHummingbird
import TesseraServerSupport
import TesseraSQLite
import TesseraStore

/// `tessera-bench`: the package's benchmarks, kept out of the programs it
/// ships (`tessera`, `tessera-server`).
@main
struct TesseraBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera-bench",
        abstract: "Measure Tessera: the README's benchmark suites, and the server's encoding and routes in process.",
        discussion: "Without a subcommand, runs the suites: `tessera-bench --suite serving --size 1m --runs 3` (see 'tessera-bench help suites').",
        version: TesseraVersion.current,
        subcommands: [BenchCommand.self, EncodingBenchmark.self, RouteBenchmark.self, WarmPathCommand.self, FirstQueriesCommand.self, AppendsCommand.self, ClientScrollBenchmark.self, MountedApp.self],
        defaultSubcommand: BenchCommand.self
    )

    /// Runs the subcommand named on the command line; failures are one line
    /// on standard error, as `tessera`'s. The server's benchmarks run as the
    /// server does: its log lines, and Swift concurrency's jobs on NIO's
    /// event loop threads. SQLite's memory statistics are off, as in `tessera` and `tessera-server`.
    static func main() async {
        LayoutStore.turnOffSQLiteMemoryStatistics()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            if command is EncodingBenchmark || command is RouteBenchmark || command is MountedApp {
                TesseraServerSettings.bootstrap()
            }
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exitReporting(error, arguments: arguments)
        }
    }
}
