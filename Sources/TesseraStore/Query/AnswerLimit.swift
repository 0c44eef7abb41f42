import TesseraLayout

/// The cause of a ``StoreError`` with code ``StoreError/Code/tooLarge``: a
/// rect query would answer more elements than the caller allowed
/// (`maximumElements` of ``LayoutStore/query(_:name:crossExtent:direction:offsets:maximumElements:compute:)``),
/// and how to ask for less.
public struct AnswerTooLarge: Error, Sendable, Hashable {
    /// The elements counted: all of the answer's when ``isExact``, else a
    /// lower bound (counting stopped once past the limit).
    public var elementCount: Int
    public var isExact: Bool
    /// The most elements the caller allowed.
    public var limit: Int
    /// About how long a part of the layout, along its scroll axis, holds
    /// ``limit`` elements at the layout's mean density.
    public var partLength: Double

    /// The sentence saying so, `whose` naming the limit ("the", "the server's").
    public func sentence(limitOf whose: String) -> String {
        "the rect holds \(isExact ? "" : "at least ")\(elementCount) elements, more than \(whose) limit of \(limit) elements per answer; "
            + "ask for smaller rects: split this one along the scroll axis "
            + "(parts of \(JSONWriter.format(partLength.rounded(.down))) points hold about \(limit) elements of this layout on average)"
    }
}

/// At most `limit` elements in one answer, found out band by band along the
/// scroll axis for a long rect, never with all of its elements read at once.
struct AnswerLimit {
    /// Rects up to this long along both axes are read whole and counted
    /// after (a viewport, a tile).
    static let wholeRectLength = 20_000.0

    let limit: Int
    let layout: StoredLayout

    /// Throws ``StoreError/Code/tooLarge`` when `rect` holds more than the limit: read in bands of about half the
    /// limit each, each element counted in the band its start falls in, stopping as soon as the count is over.
    /// Does nothing for short rects (their answer is counted once read, by `LayoutReader.answer`).
    func checkBeforeReading(_ rect: Rect, reader: LayoutReader, direction: LayoutDirection, offsets: OrthogonalOffsets, uses: inout FrameUses) throws {
        guard rect.width > Self.wholeRectLength || rect.height > Self.wholeRectLength else { return }
        let local = layout.axis.localFrame(rect)
        let low = max(local.scroll, 0)
        let high = min(local.scrollEnd, layout.contentLength)
        guard high - low > Self.wholeRectLength, layout.elementCount > limit else { return }
        let band = max(Self.wholeRectLength, length(holding: limit / 2))
        var counted = 0
        var start = low
        while start < high {
            let end = high - start > band ? start + band : high
            let part = LocalFrame(cross: local.cross, scroll: start, crossLength: local.crossLength, scrollLength: end - start)
            let answer = try reader.answer(.rect(layout.axis.screenRect(part)), direction: direction, offsets: offsets, limit: nil, uses: &uses)
            for element in answer?.elements ?? [] {
                let scroll = layout.axis.localFrame(element.frame).scroll
                if (scroll >= start || start == low) && (scroll < end || end == high) { counted += 1 }
            }
            guard counted <= limit else { throw tooLarge(counted: counted, exact: false) }
            start = end
        }
    }

    func tooLarge(counted: Int, exact: Bool) -> StoreError {
        let cause = AnswerTooLarge(elementCount: counted, isExact: exact, limit: limit, partLength: length(holding: limit))
        return StoreError(.tooLarge, cause.sentence(limitOf: "the"), spec: layout.specName, crossExtent: layout.crossExtent, cause: cause)
    }

    /// The scroll length that holds `count` elements at the layout's mean density.
    private func length(holding count: Int) -> Double {
        guard layout.elementCount > 0 else { return layout.contentLength }
        return max(1, layout.contentLength * Double(count) / Double(layout.elementCount))
    }
}
