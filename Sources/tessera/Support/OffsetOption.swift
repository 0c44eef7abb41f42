import ArgumentParser
import TesseraLayout

/// `--offset SECTION=X`, repeatable: how far a query scrolls each
/// orthogonal section (carousel) across the feed (the contract's
/// "Orthogonal sections"); sections that scroll with the feed ignore it.
struct OffsetOption: ParsableArguments {
    @Option(
        name: .customLong("offset"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("Scroll an orthogonal section (carousel) by X points across the feed (repeatable).", valueName: "SECTION=X")
    )
    var texts: [String] = []

    func validate() throws {
        _ = try offsets
    }

    /// The offsets given; every offset 0 without `--offset`.
    var offsets: OrthogonalOffsets {
        get throws {
            guard !texts.isEmpty else { return .none }
            do {
                return try OrthogonalOffsets(parsing: texts.map { $0[...] }, separator: "=")
            } catch {
                throw ValidationError("--offset: \(error.description)")
            }
        }
    }
}
