import ArgumentParser

/// The `tessera` command: compute, store and query collection-view layouts.
@main
struct Tessera: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Compute collection-view layouts and answer rect queries.",
        subcommands: [LayoutCommand.self, RenderCommand.self, BenchCommand.self]
    )
}
