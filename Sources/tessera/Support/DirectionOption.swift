import ArgumentParser
import TesseraLayout

/// `--rtl`: answer right to left (the contract's "Right-to-left"), the
/// mirror of the left-to-right answer for the mirrored rect; stored frames
/// stay left to right.
struct DirectionOption: ParsableArguments {
    @Flag(help: "Answer right to left: frames mirrored across the content's width (the query rect is mirrored first, pinning applied before).")
    var rtl = false

    /// Right to left with `--rtl`, else left to right.
    var direction: LayoutDirection { rtl ? .rightToLeft : .leftToRight }
}
