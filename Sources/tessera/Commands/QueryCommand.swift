import ArgumentParser
import TesseraBackends
import TesseraLayout
import TesseraSQLite

/// `tessera query`: the elements in a rect or viewport, from a store or a spec.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the elements that intersect a rect, or are visible in a viewport (pinned headers applied).",
        discussion: "From a store (--db FILE --name N), computing and storing the layout first when it is missing or stale, or from a spec file (--spec SPEC) in memory."
    )

    @Option(help: "The store: \(StoreArgument.kinds).")
    var db: String?

    @Option(help: "The stored spec's name (with --db).", transform: Spec.normalizedName)
    var name: String?

    @Option(help: "A spec file, laid out in memory instead of a store (- reads standard input).")
    var spec: String?

    @OptionGroup var extent: ExtentOptions

    @OptionGroup var direction: DirectionOption

    @OptionGroup var offset: OffsetOption

    @Option(parsing: .unconditional, help: "The rect x,y,w,h: elements whose frames intersect it.", transform: RectArgument.init(parsing:))
    var rect: RectArgument?

    @Option(parsing: .unconditional, help: "The viewport x,y,w,h: visible elements, with pinned headers and footers moved.", transform: RectArgument.init(parsing:))
    var viewport: RectArgument?

    @Option(help: "Output format: table (default on a terminal), json or ndjson.")
    var format: DisplayFormat?

    func validate() throws {
        guard (rect == nil) != (viewport == nil) else { throw ValidationError("give exactly one of --rect or --viewport") }
        guard (spec == nil) != (db == nil) else { throw ValidationError("give either --db FILE --name N, or --spec SPEC") }
        if db != nil, name == nil { throw ValidationError("--db needs --name, the stored spec's name") }
        if spec != nil, name != nil { throw ValidationError("--name is for a stored spec (with --db); --spec lays out its file as it is") }
        if let name { try ArgumentCheck.specName(name, flag: "--name") }
    }

    func run() async throws {
        guard let query = (rect ?? viewport)?.rect else { return }
        let pinning = viewport != nil
        let direction = direction.direction
        let offsets = try offset.offsets
        let printer = ElementPrinter(format: DisplayFormat.resolve(format))
        if let spec {
            let result = try extent.layout(specFile: spec, command: "query --spec")
            let elements = pinning
                ? result.visibleElements(viewport: query, direction: direction, offsets: offsets)
                : result.elements(in: query, direction: direction, offsets: offsets)
            printer.print(summary: result.summary, orthogonal: result.orthogonalContent(of: elements), elements: elements)
            return
        }
        guard let db, let name else { return }
        let (store, layout) = try await StoreFile.freshLayout(db, name: name, extent: extent, command: "query")
        defer { store.close() }
        let answer = try await reportingErrors {
            try await store.answer(
                pinning ? .viewport(query) : .rect(query), name: name, crossExtent: layout.crossExtent, direction: direction, offsets: offsets
            )
        }
        printer.print(summary: answer.layout.summary, orthogonal: answer.orthogonal, elements: answer.elements)
    }
}
