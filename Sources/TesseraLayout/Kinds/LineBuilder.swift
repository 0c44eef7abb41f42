/// How a finished line is aligned along the cross axis.
public enum LineAlignment: String, Sendable, Hashable, Codable, CaseIterable {
    case justified, start, center, end
}

/// Places items in lines, the rules shared by flow and grid: items go across
/// with `itemSpacing` between them, an item that would pass the available
/// extent opens a new line `lineSpacing` after the tallest item of the line
/// before, items are centred on their line's length, and a finished line is
/// aligned.
///
/// The open line is the state a layout keeps to go on with appended items.
struct LineBuilder: Sendable, Hashable, Codable {
    struct PendingItem: Sendable, Hashable, Codable {
        var index: Int
        var cross: Double
        var crossLength: Double
        var scrollLength: Double
    }

    let available: Double
    let itemSpacing: Double
    let lineSpacing: Double
    let alignment: LineAlignment
    private var lineStart = 0.0
    private var lineLength = 0.0
    private var lineCrossEnd = 0.0
    private var pending: [PendingItem] = []

    init(available: Double, itemSpacing: Double, lineSpacing: Double, alignment: LineAlignment) {
        self.available = available
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.alignment = alignment
    }

    /// The items of the open line, whose frames change with later items.
    var openItems: Range<Int> {
        guard let first = pending.first, let last = pending.last else { return 0..<0 }
        return first.index..<(last.index + 1)
    }

    mutating func add(index: Int, crossLength: Double, scrollLength: Double, into sink: inout FrameSink) {
        if !pending.isEmpty {
            let cross = lineCrossEnd + itemSpacing
            // A relative tolerance, so that n items of exactly 1/n of the
            // line fit on it despite rounding (PluginLayout wraps early here).
            if cross + crossLength > available + available * 1e-9 {
                emitLine(isLast: false, into: &sink)
                lineStart = lineStart + lineLength + lineSpacing
                lineLength = 0
                pending.removeAll(keepingCapacity: true)
            }
        }
        let cross = pending.isEmpty ? 0 : lineCrossEnd + itemSpacing
        pending.append(PendingItem(index: index, cross: cross, crossLength: crossLength, scrollLength: scrollLength))
        lineCrossEnd = cross + crossLength
        lineLength = max(lineLength, scrollLength)
    }

    /// Writes the open line as the last one and returns the extent.
    func finish(into sink: inout FrameSink) -> Double {
        guard !pending.isEmpty else { return 0 }
        emitLine(isLast: true, into: &sink)
        return lineStart + lineLength
    }

    private func emitLine(isLast: Bool, into sink: inout FrameSink) {
        let free = available - lineCrossEnd
        let count = pending.count
        for (position, item) in pending.enumerated() {
            let shift: Double = switch alignment {
            case .start: 0
            case .center: free / 2
            case .end: free
            case .justified where isLast: 0
            case .justified: count == 1 ? free / 2 : Double(position) * free / Double(count - 1)
            }
            sink.emit(item: item.index, frame: LocalFrame(
                cross: item.cross + shift,
                scroll: lineStart + (lineLength - item.scrollLength) / 2,
                crossLength: item.crossLength,
                scrollLength: item.scrollLength
            ))
        }
    }
}
