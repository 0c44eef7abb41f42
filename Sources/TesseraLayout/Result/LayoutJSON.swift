/// The one writer of the contract's JSON text for layouts: an element, a
/// layout's fields, or a whole answer, appended to a byte buffer without
/// building strings on the way. Numbers are printed as by
/// ``JSONWriter/format(_:)``, so that they read back as the same double.
///
/// ```swift
/// var bytes: [UInt8] = []
/// LayoutJSON.appendAnswer(summary: layout.summary, elements: visible, to: &bytes)
/// ```
package enum LayoutJSON {
    /// The most bytes one element takes: its fixed text, three integers and
    /// four numbers.
    static let maximumElementLength = 96 + 3 * 20 + 4 * ByteCursor.maximumNumberLength

    /// `{"kind": "cell", "section": 0, "item": 0, "frame": [0, 44, 100, 50], "zIndex": 0}`;
    /// headers, footers and backgrounds have no `"item"`.
    package static func append(_ element: LayoutElement, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: maximumElementLength) { write(element, to: &$0) }
    }

    private static func write(_ element: LayoutElement, to out: inout ByteCursor) {
        switch element.kind {
        case .cell: out.write(#"{"kind": "cell", "section": "#)
        case .header: out.write(#"{"kind": "header", "section": "#)
        case .footer: out.write(#"{"kind": "footer", "section": "#)
        case .background: out.write(#"{"kind": "background", "section": "#)
        }
        out.write(element.section)
        if let item = element.item {
            out.write(#", "item": "#)
            out.write(item)
        }
        out.write(#", "frame": "#)
        write(element.frame, to: &out)
        out.write(#", "zIndex": "#)
        out.write(element.zIndex)
        out.write(UInt8(ascii: "}"))
    }

    /// The fields of a layout other than its elements, as JSON members:
    /// `"axis": "vertical", "extent": 390, "contentSize": [390, 1234.5]`,
    /// then `"orthogonal": [{"section": 2, "contentLength": 812}]` when the
    /// answer holds elements of orthogonal sections.
    package static func appendMembers(of summary: LayoutSummary, orthogonal: [OrthogonalContent] = [], to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: membersCapacity(orthogonalCount: orthogonal.count)) { out in
            writeMembers(of: summary, orthogonal: orthogonal, to: &out)
        }
    }

    /// The most bytes the members take with `orthogonalCount` entries.
    private static func membersCapacity(orthogonalCount: Int) -> Int {
        64 + 3 * ByteCursor.maximumNumberLength + 24 + orthogonalCount * (48 + ByteCursor.maximumNumberLength)
    }

    private static func writeMembers(of summary: LayoutSummary, orthogonal: [OrthogonalContent], to out: inout ByteCursor) {
        switch summary.axis {
        case .vertical: out.write(#""axis": "vertical", "extent": "#)
        case .horizontal: out.write(#""axis": "horizontal", "extent": "#)
        }
        out.write(summary.crossExtent)
        out.write(#", "contentSize": "#)
        let size = summary.contentSize
        out.write(UInt8(ascii: "["))
        out.write(size.width)
        out.writeSeparator()
        out.write(size.height)
        out.write(UInt8(ascii: "]"))
        guard !orthogonal.isEmpty else { return }
        out.write(#", "orthogonal": ["#)
        for (index, entry) in orthogonal.enumerated() {
            out.write(index == 0 ? #"{"section": "# : #", {"section": "#)
            out.write(entry.section)
            out.write(#", "contentLength": "#)
            out.write(entry.contentLength)
            out.write(UInt8(ascii: "}"))
        }
        out.write(UInt8(ascii: "]"))
    }

    /// A whole answer, as `tessera … --format json` prints it (without the
    /// final newline):
    /// `{"axis": "vertical", "extent": 390, "contentSize": [390, 1234.5],\n "elements": [\n  {…},\n  {…}\n ]}`.
    static func appendAnswer(
        summary: LayoutSummary,
        orthogonal: [OrthogonalContent] = [],
        elements: some Sequence<LayoutElement>,
        to bytes: inout [UInt8]
    ) {
        appendAnswerOpening(summary: summary, orthogonal: orthogonal, to: &bytes)
        let written: Bool? = elements.withContiguousStorageIfAvailable { elements in
            for (offset, element) in elements.enumerated() {
                appendAnswerElement(element, first: offset == 0, to: &bytes)
            }
            return !elements.isEmpty
        }
        var first = !(written ?? false)
        if written == nil {
            for element in elements {
                appendAnswerElement(element, first: first, to: &bytes)
                first = false
            }
        }
        appendAnswerClosing(empty: first, to: &bytes)
    }

    /// The most bytes ``writeAnswer(summary:orthogonal:elements:into:)``
    /// writes for `elementCount` elements and `orthogonalCount` entries of
    /// `"orthogonal"`.
    package static func maximumAnswerLength(elementCount: Int, orthogonalCount: Int = 0) -> Int {
        openingCapacity(orthogonalCount: orthogonalCount) + 8 + elementCount * (4 + maximumElementLength)
    }

    /// Writes the answer ``appendAnswer(summary:elements:to:)`` appends
    /// (the same bytes) straight into `start`, which has room for at least
    /// ``maximumAnswerLength(elementCount:)`` bytes: a server's response
    /// buffer, with no copy on the way. Returns how many bytes it wrote.
    package static func writeAnswer(
        summary: LayoutSummary, orthogonal: [OrthogonalContent] = [], elements: [LayoutElement], into start: UnsafeMutableRawPointer
    ) -> Int {
        let first = start.assumingMemoryBound(to: UInt8.self)
        var out = ByteCursor(first)
        writeOpening(summary: summary, orthogonal: orthogonal, to: &out)
        for (offset, element) in elements.enumerated() {
            writeAnswerElement(element, first: offset == 0, to: &out)
        }
        out.write(elements.isEmpty ? "]}" : "\n ]}")
        return out.next - first
    }

    /// An answer's start, up to its elements: for answers written in pieces
    /// (millions of elements), as ``appendAnswer(summary:elements:to:)`` does.
    package static func appendAnswerOpening(summary: LayoutSummary, orthogonal: [OrthogonalContent] = [], to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: openingCapacity(orthogonalCount: orthogonal.count)) {
            writeOpening(summary: summary, orthogonal: orthogonal, to: &$0)
        }
    }

    private static func openingCapacity(orthogonalCount: Int) -> Int {
        32 + membersCapacity(orthogonalCount: orthogonalCount)
    }

    private static func writeOpening(summary: LayoutSummary, orthogonal: [OrthogonalContent], to out: inout ByteCursor) {
        out.write(UInt8(ascii: "{"))
        writeMembers(of: summary, orthogonal: orthogonal, to: &out)
        out.write(",\n \"elements\": [")
    }

    /// One element of an answer, after its separator.
    package static func appendAnswerElement(_ element: LayoutElement, first: Bool, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: 4 + maximumElementLength) { writeAnswerElement(element, first: first, to: &$0) }
    }

    private static func writeAnswerElement(_ element: LayoutElement, first: Bool, to out: inout ByteCursor) {
        if first { out.write("\n  ") } else { out.write(",\n  ") }
        write(element, to: &out)
    }

    /// An answer's end; `empty` when it had no elements.
    package static func appendAnswerClosing(empty: Bool, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: empty ? closings.empty : closings.filled)
    }

    private static let closings = (empty: Array("]}".utf8), filled: Array("\n ]}".utf8))

    /// `[x, y, width, height]`, as ``Rect/description`` prints it.
    static func append(_ rect: Rect, to bytes: inout [UInt8]) {
        ByteCursor.append(to: &bytes, capacity: 8 + 4 * ByteCursor.maximumNumberLength) { write(rect, to: &$0) }
    }

    /// `[x, y, width, height]`, as in elements.
    static func write(_ rect: Rect, to out: inout ByteCursor) {
        out.write(UInt8(ascii: "["))
        out.write(rect.x)
        out.writeSeparator()
        out.write(rect.y)
        out.writeSeparator()
        out.write(rect.width)
        out.writeSeparator()
        out.write(rect.height)
        out.write(UInt8(ascii: "]"))
    }

    /// The text of what `write` appends.
    @inlinable
    package static func text(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(96)
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
