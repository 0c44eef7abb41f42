import TesseraCommandSupport
import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A layout drawn over a range of its scroll axis, from whatever can answer
/// rect queries: a ``LayoutResult`` in memory or a store on disk. Only the
/// elements in the range are fetched, never the whole layout.
struct RenderedPicture {
    let svg: String
    let elementCount: Int
    /// The area drawn, in layout coordinates.
    let area: Rect

    /// How much is drawn when no range is given: the first 5000 points.
    static let defaultLength = 5000.0

    /// - Parameters:
    ///   - summary: the layout's axis, cross extent and content length.
    ///   - rect: a query rect to draw, its hits highlighted.
    ///   - range: the stretch of the scroll axis to draw.
    ///   - maximumPixels: the picture's longest side in pixels.
    ///   - elements: the elements that intersect a rect, in layout order
    ///     (right to left when they come mirrored, carousels scrolled by
    ///     their offsets: the picture draws what it is given, clipped to
    ///     the area, so a carousel shows the part within the container).
    init(
        summary: LayoutSummary,
        rect: Rect?,
        range: RangeArgument?,
        maximumPixels: Double = 2000,
        elements: (Rect) async throws -> [LayoutElement]
    ) async rethrows {
        let lower = range?.lower ?? 0
        let upper = range?.upper ?? min(summary.contentLength, lower + Self.defaultLength)
        let length = max(upper - lower, 1)
        area = summary.axis == .vertical
            ? Rect(x: 0, y: lower, width: summary.crossExtent, height: length)
            : Rect(x: lower, y: 0, width: length, height: summary.crossExtent)
        let drawn = try await elements(area)
        var hits: Set<ElementKey> = []
        if let rect { hits = Set(try await elements(rect).map(ElementKey.init)) }
        svg = SVGRenderer(area: area, maximumPixels: maximumPixels).render(elements: drawn, query: rect, hits: hits)
        elementCount = drawn.count
    }

    /// A layout computed in memory, drawn in `direction`, carousels
    /// scrolled by `offsets`.
    init(result: LayoutResult, rect: Rect?, range: RangeArgument?, direction: LayoutDirection = .leftToRight, offsets: OrthogonalOffsets = .none) async {
        await self.init(summary: result.summary, rect: rect, range: range) { result.elements(in: $0, direction: direction, offsets: offsets) }
    }

    func write(to path: String) throws {
        guard let file = fopen(path, "wb") else { throw CommandError("cannot write \(path.quotedPathForMessage): \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        let bytes = Array(svg.utf8)
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        guard written == bytes.count else { throw CommandError("cannot write \(path.quotedPathForMessage): disk full or closed") }
    }
}
