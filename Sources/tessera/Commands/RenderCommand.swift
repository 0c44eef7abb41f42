import ArgumentParser
import TesseraLayout

/// `tessera render SPEC --width W --out FILE.svg`: draw a layout.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a layout as an SVG picture, optionally with a query rect and its hits."
    )

    @Argument(help: "The spec file (JSON, format 1).")
    var spec: String

    @OptionGroup var extent: ExtentOptions

    @Option(help: "The SVG file to write.")
    var out: String

    @Option(help: "A query rect x,y,w,h to draw, with the elements it hits highlighted.")
    var rect: RectArgument?

    @Option(help: "Only this range a,b along the scroll axis (for long feeds). Default: the first 5000 points.")
    var range: RangeArgument?

    func run() throws {
        let loaded: Spec
        let result: LayoutResult
        do {
            loaded = try Spec(contentsOfFile: spec)
            result = try LayoutEngine().layout(loaded, crossExtent: try extent.crossExtent(for: loaded.axis))
        } catch let error as SpecError {
            throw CommandError.spec(error, file: spec)
        }
        let picture = RenderedPicture(result: result, rect: rect?.rect, range: range)
        try picture.write(to: out)
        printError("render: \(picture.elementCount) elements in \(out)")
    }
}

/// A layout drawn over a range of its scroll axis.
struct RenderedPicture {
    let svg: String
    let elementCount: Int

    init(result: LayoutResult, rect: Rect?, range: RangeArgument?) {
        let lower = range?.lower ?? 0
        let upper = range?.upper ?? min(result.summary.contentLength, lower + 5000)
        let area = result.axis == .vertical
            ? Rect(x: 0, y: lower, width: result.crossExtent, height: max(upper - lower, 1))
            : Rect(x: lower, y: 0, width: max(upper - lower, 1), height: result.crossExtent)
        let elements = result.elements(in: area)
        let hits = Set((rect.map { result.elements(in: $0) } ?? []).map(ElementKey.init))
        svg = SVGRenderer(area: area).render(elements: elements, query: rect, hits: hits)
        elementCount = elements.count
    }

    func write(to path: String) throws {
        guard let file = fopen(path, "wb") else { throw CommandError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        let bytes = Array(svg.utf8)
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw CommandError("cannot write '\(path)': disk full or closed") }
    }
}

#if canImport(Glibc)
import Glibc
#endif
