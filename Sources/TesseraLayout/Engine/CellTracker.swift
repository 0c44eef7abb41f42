/// Checks what a kind writes for one section: a frame for every item it was
/// given, exactly once, for no other item, and only finite frames with
/// lengths of at least 0. A kind that breaks this has a bug, reported as an
/// error instead of a wrong layout (counting frames is not enough: an item
/// written twice and another skipped add up to the right count).
///
/// Kinds write items mostly in order, so the tracker keeps the end of the
/// run of items written from the first one, and remembers only the items
/// that arrive ahead of that run: constant work and no memory per frame on
/// the usual path.
struct CellTracker {
    let section: Int
    let kind: String
    /// The first item the kind must write: 0, or after a resume the first
    /// item that is still open.
    let firstItem: Int
    /// Items firstItem..<writtenThrough are written.
    private var writtenThrough: Int
    /// Items after `writtenThrough` that are written, out of order.
    private var writtenAhead: Set<Int> = []
    private(set) var span: ClosedRange<Double>?
    private var spanLow = Double.infinity
    private var spanHigh = -Double.infinity

    init(section: Int, kind: String, firstItem: Int) {
        self.section = section
        self.kind = kind
        self.firstItem = firstItem
        writtenThrough = firstItem
    }

    private var layoutPath: JSONPath {
        JSONPath.root.appending("sections").appending(section).appending("layout")
    }

    mutating func record(_ frames: [PlacedFrame]) throws {
        for placed in frames {
            let frame = placed.frame
            guard frame.cross.isFinite, frame.scroll.isFinite, frame.crossLength.isFinite, frame.scrollLength.isFinite,
                  frame.crossLength >= 0, frame.scrollLength >= 0
            else {
                throw JSONPath.root.appending("sections").appending(section).appending("items").appending(placed.item)
                    .error("the \(kind) layout produced a frame that is not finite or has a negative length")
            }
            try markWritten(placed.item)
            spanLow = min(spanLow, frame.scroll)
            spanHigh = max(spanHigh, frame.scrollEnd)
        }
        // Lengths are at least 0, so low ≤ high once a frame is recorded.
        if !frames.isEmpty { span = spanLow...spanHigh }
    }

    private mutating func markWritten(_ item: Int) throws {
        if item == writtenThrough {
            writtenThrough += 1
            if !writtenAhead.isEmpty {
                while writtenAhead.remove(writtenThrough) != nil { writtenThrough += 1 }
            }
        } else if item < firstItem {
            throw notGiven(item, itemCount: nil)
        } else if item < writtenThrough || !writtenAhead.insert(item).inserted {
            throw layoutPath.error("the \(kind) layout wrote item \(item) twice")
        }
    }

    private func notGiven(_ item: Int, itemCount: Int?) -> SpecError {
        let count = itemCount.map { " (the section has \($0) items)" } ?? ""
        return layoutPath.error("the \(kind) layout wrote a frame for item \(item), which it was not given\(count)")
    }

    /// Checks, once the section's last frame is recorded, that items
    /// firstItem..<itemCount were all written and nothing else.
    func check(itemCount: Int, itemsExtent: Double) throws {
        let lastWritten = max(writtenThrough - 1, writtenAhead.max() ?? Int.min)
        if lastWritten >= itemCount { throw notGiven(lastWritten, itemCount: itemCount) }
        if writtenThrough < itemCount {
            throw layoutPath.error("the \(kind) layout wrote no frame for item \(writtenThrough) (of \(itemCount) items)")
        }
        guard itemsExtent.isFinite, itemsExtent >= 0 else {
            throw layoutPath.error("the \(kind) layout reported an invalid extent \(itemsExtent)")
        }
    }
}
