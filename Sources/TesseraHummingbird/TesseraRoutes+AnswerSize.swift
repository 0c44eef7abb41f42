import Hummingbird
import TesseraLayout
import TesseraStore

/// The most elements one answer holds (`--max-answer-elements`): a rect
/// over millions of elements answers 400, found out band by band along
/// the scroll axis, never with all of its elements read at once.
extension TesseraRoutes {
    /// Rects up to this long along both axes are read whole and counted
    /// after (a viewport, a tile).
    static var wholeRectLength: Double { 20_000 }

    /// Refuses `rect` on the layout of `name` at `extent` when it holds
    /// more elements than the configuration allows, reading it in bands of
    /// about half the limit each (from the layout's density), counting each
    /// element in the band its start falls in, and stopping as soon as the
    /// count is over: a lower bound of what the answer would hold. Does
    /// nothing for short rects and for layouts not stored fresh (the answer
    /// is checked once read, see ``refuseOversized(_:)``).
    func refuseOversized(_ rect: Rect, name: String, extent: Double, offsets: OrthogonalOffsets = .none) async throws {
        guard rect.width > Self.wholeRectLength || rect.height > Self.wholeRectLength,
              let layout = try await store.layouts(name: name).first(where: { $0.crossExtent == extent && $0.state == .fresh })
        else { return }
        let limit = configuration.maximumAnswerElements
        let local = layout.axis.localFrame(rect)
        let low = max(local.scroll, 0)
        let high = min(local.scrollEnd, layout.contentLength)
        guard high - low > Self.wholeRectLength, layout.elementCount > limit else { return }
        let band = max(Self.wholeRectLength, Self.length(holding: limit / 2, of: layout))
        var counted = 0
        var start = low
        while start < high {
            let end = high - start > band ? start + band : high
            let part = LocalFrame(cross: local.cross, scroll: start, crossLength: local.crossLength, scrollLength: end - start)
            let answer = try await store.answer(.rect(layout.axis.screenRect(part)), name: name, crossExtent: extent, offsets: offsets, computeIfMissing: false)
            for element in answer.elements {
                let scroll = layout.axis.localFrame(element.frame).scroll
                if (scroll >= start || start == low) && (scroll < end || end == high) { counted += 1 }
            }
            guard counted <= limit else { throw oversized(answer.layout, counted: counted, exact: false) }
            start = end
            // Other requests of this event loop go first.
            await Task.yield()
        }
    }

    /// 400 for an answer of more elements than the configuration allows.
    func refuseOversized(_ answer: LayoutAnswer) throws(Problem) {
        guard answer.elements.count > configuration.maximumAnswerElements else { return }
        throw oversized(answer.layout, counted: answer.elements.count, exact: true)
    }

    /// The problem, saying how to ask for less: rects are cheap to split,
    /// and about how long a part of this layout holds the limit.
    private func oversized(_ layout: StoredLayout, counted: Int, exact: Bool) -> Problem {
        let limit = configuration.maximumAnswerElements
        let part = JSONWriter.format(Self.length(holding: limit, of: layout).rounded(.down))
        return Problem(.badRequest, "the rect holds \(exact ? "" : "at least ")\(counted) elements, more than the server's limit of "
            + "\(limit) elements per answer; ask for smaller rects: split this one along the scroll axis "
            + "(parts of \(part) points hold about \(limit) elements of this layout on average)")
    }

    /// The scroll length that holds `count` elements at the layout's mean density.
    private static func length(holding count: Int, of layout: StoredLayout) -> Double {
        guard layout.elementCount > 0 else { return layout.contentLength }
        return max(1, layout.contentLength * Double(count) / Double(layout.elementCount))
    }
}
