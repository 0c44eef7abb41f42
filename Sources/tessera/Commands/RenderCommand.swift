import ArgumentParser
import Foundation
import TesseraBackends
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite

/// `tessera render (SPEC | --db FILE --name N) --width W --out FILE.svg`: draw a layout.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a layout as an SVG picture, optionally with a query rect and its hits.",
        discussion: """
        From a spec file, laid out in memory, or from a store (--db FILE --name N), which reads only \
        the elements in the range drawn (computing and storing the layout first when it is missing or stale).
        """
    )

    @Argument(help: "The spec file (JSON, format 1; - reads standard input); or give --db and --name instead.")
    var spec: String?

    @Option(help: "The store to read the layout from, instead of a spec file: \(StoreArgument.kinds).")
    var db: String?

    @Option(help: "The stored spec's name (with --db).", transform: Spec.normalizedName)
    var name: String?

    @OptionGroup var extent: ExtentOptions

    @OptionGroup var direction: DirectionOption

    @OptionGroup var offset: OffsetOption

    @Option(help: "The SVG file to write.")
    var out: String

    @Option(parsing: .unconditional, help: "A query rect x,y,w,h to draw, with the elements it hits highlighted.", transform: RectArgument.init(parsing:))
    var rect: RectArgument?

    @Option(
        parsing: .unconditional, help: "Only this range a,b along the scroll axis (for long feeds). Default: the first 5000 points.",
        transform: RangeArgument.init(parsing:)
    )
    var range: RangeArgument?

    func validate() throws {
        if let name { try ArgumentCheck.specName(name, flag: "--name") }
    }

    func run() async throws {
        let picture: RenderedPicture
        switch (spec, db, name) {
        case (let spec?, nil, nil):
            picture = try await renderSpec(spec)
        case (_?, _?, _), (_?, _, _?):
            throw CommandError("give either a SPEC file or --db FILE --name N, not both")
        case (nil, let db?, let name?):
            picture = try await renderStored(db: db, name: name)
        case (nil, _?, nil):
            throw CommandError("--db needs --name, the stored spec's name")
        case (nil, nil, _):
            throw CommandError("give a SPEC file to render, or --db FILE --name N for a stored layout")
        }
        try picture.write(to: out)
        printError("render: \(picture.elementCount) elements in \(out)")
    }

    private func renderSpec(_ spec: String) async throws -> RenderedPicture {
        await RenderedPicture(
            result: try extent.layout(specFile: spec, command: "render"), rect: rect?.rect, range: range, direction: direction.direction,
            offsets: try offset.offsets
        )
    }

    private func renderStored(db: String, name: String) async throws -> RenderedPicture {
        let offsets = try offset.offsets
        let (store, layout) = try await StoreFile.freshLayout(db, name: name, extent: extent, command: "render")
        defer { store.close() }
        return try await reportingErrors {
            try await RenderedPicture(summary: layout.summary, rect: rect?.rect, range: range) { area in
                try await store.elements(name: name, crossExtent: layout.crossExtent, in: area, direction: direction.direction, offsets: offsets)
            }
        }
    }
}
