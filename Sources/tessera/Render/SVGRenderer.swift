import TesseraLayout

/// Draws elements as an SVG picture: one `<rect>` per element, coloured per
/// section; headers, footers and backgrounds are distinct; item numbers are
/// written where they fit; an optional query rect is drawn with its hits
/// highlighted.
struct SVGRenderer {
    /// The area drawn, in layout coordinates.
    var area: Rect
    /// Longest side of the picture in pixels; the drawing is scaled to fit.
    var maximumPixels: Double = 2000

    func render(elements: [LayoutElement], query: Rect? = nil, hits: Set<ElementKey> = []) -> String {
        let scale = min(1, maximumPixels / max(area.width, area.height, 1))
        let width = (area.width * scale).rounded(.up)
        let height = (area.height * scale).rounded(.up)
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))" height="\(fmt(height))" \
        viewBox="\(fmt(area.x)) \(fmt(area.y)) \(fmt(area.width)) \(fmt(area.height))">
        <rect class="canvas" x="\(fmt(area.x))" y="\(fmt(area.y))" width="\(fmt(area.width))" height="\(fmt(area.height))" fill="#fafafa"/>
        <clipPath id="area"><rect x="\(fmt(area.x))" y="\(fmt(area.y))" width="\(fmt(area.width))" height="\(fmt(area.height))"/></clipPath>
        <g clip-path="url(#area)">

        """
        let stroke = 1 / scale
        // Backgrounds first, then cells, then headers and footers on top, as
        // their zIndex says.
        let ordered = elements.sorted { $0.zIndex < $1.zIndex }
        // Clipped to the area: a carousel's cells past the container's
        // cross extent (scrolled out of view) are not drawn.
        for element in ordered {
            let hit = hits.contains(ElementKey(element))
            svg += shape(element, hit: hit, stroke: stroke)
            if element.kind == .cell, let item = element.item {
                svg += label(String(item), in: element.frame, scale: scale)
            }
        }
        svg += "</g>\n"
        if let query {
            svg += "<rect class=\"query\" x=\"\(fmt(query.x))\" y=\"\(fmt(query.y))\" width=\"\(fmt(query.width))\" height=\"\(fmt(query.height))\" "
            svg += "fill=\"none\" stroke=\"#e0245e\" stroke-width=\"\(fmt(3 * stroke))\" stroke-dasharray=\"\(fmt(8 * stroke))\"/>\n"
        }
        return svg + "</svg>\n"
    }

    private func shape(_ element: LayoutElement, hit: Bool, stroke: Double) -> String {
        let frame = element.frame
        let fill: String
        switch element.kind {
        case .cell: fill = "hsl(\((element.section * 137) % 360), 60%, \(hit ? 45 : 72)%)"
        case .header: fill = "#37474f"
        case .footer: fill = "#78909c"
        case .background: fill = "hsl(\((element.section * 137) % 360), 40%, 94%)"
        }
        var attributes = "class=\"element \(element.kind.rawValue)\(hit ? " hit" : "")\" data-section=\"\(element.section)\""
        if let item = element.item { attributes += " data-item=\"\(item)\"" }
        return "<rect \(attributes) x=\"\(fmt(frame.x))\" y=\"\(fmt(frame.y))\" width=\"\(fmt(frame.width))\" "
            + "height=\"\(fmt(frame.height))\" fill=\"\(fill)\" stroke=\"\(hit ? "#e0245e" : "#ffffff")\" stroke-width=\"\(fmt(stroke))\"/>\n"
    }

    private func label(_ text: String, in frame: Rect, scale: Double) -> String {
        let size = min(frame.height * 0.5, 14 / scale)
        // Only where the number fits at a readable size.
        guard size * scale >= 7, Double(text.count) * size * 0.62 <= frame.width * 0.9 else { return "" }
        return "<text x=\"\(fmt(frame.x + frame.width / 2))\" y=\"\(fmt(frame.y + frame.height / 2 + size * 0.35))\" "
            + "font-family=\"sans-serif\" font-size=\"\(fmt(size))\" text-anchor=\"middle\" fill=\"#263238\">\(text)</text>\n"
    }

    private func fmt(_ value: Double) -> String {
        JSONWriter.format((value * 100).rounded() / 100)
    }
}

/// Identifies an element regardless of pinning.
struct ElementKey: Hashable {
    var kind: LayoutElement.Kind
    var section: Int
    var item: Int?

    init(_ element: LayoutElement) {
        kind = element.kind
        section = element.section
        item = element.item
    }
}
