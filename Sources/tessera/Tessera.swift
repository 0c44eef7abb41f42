import ArgumentParser

/// The `tessera` command: compute, store and query collection-view layouts.
@main
struct Tessera: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Compute collection-view layouts and answer rect queries.",
        subcommands: [
            LayoutCommand.self, PrecomputeCommand.self, AppendCommand.self, QueryCommand.self, ItemCommand.self, ListCommand.self,
            InvalidateCommand.self, PruneCommand.self, RenderCommand.self, DemoCommand.self, BenchCommand.self,
        ]
    )
}
