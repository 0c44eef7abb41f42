import TesseraLayout
import TesseraStore

/// The column tile (`…/revisions/{R}/columns/{index}`): the same elements
/// and pinning data as ``TileJSON/tile(_:)``, the elements written as
/// columns that gzip well. The members before them are the JSON tile's;
/// then, one a line:
///
/// - `"count": n`, the number of elements;
/// - `"kind": "hccc…f"`, one letter an element (`TileColumns.letter`);
/// - `"section": [0, 0, …]`, each the difference from the previous
///   element's section (the first's from 0);
/// - `"item": [0, 1, 1, …]`, cells only, each the difference from the
///   previous cell's item of the same section (the first's from −1);
/// - `"cross"`, `"crossLength"`, `"scrollLength"`: the frames across and
///   along the scroll axis, as numbers;
/// - `"scroll"`: a number is the gap after the end of the previous element
///   of the lane (`TileColumns`), `[v]` the position v itself;
/// - `"zIndex": […]` only when some element's is not its kind's.
///
/// Decoded (frames rebuilt as `axis.screenRect`), the elements are the
/// JSON tile's, bit for bit.
extension TileJSON {
    package static func columnTile(_ tile: LayoutTile) -> [UInt8] {
        let elements = tile.elements
        let axis = tile.manifest.layout.axis
        var out = head(tile, capacity: 512 + 160 * tile.pinning.count + 96 * elements.count)
        out.bytes.append(contentsOf: ",\n \"count\": ".utf8)
        JSONWriter.append(elements.count, to: &out.bytes)
        out.bytes.append(contentsOf: ",\n \"kind\": \"".utf8)
        for element in elements { out.bytes.append(TileColumns.letter(element.kind)) }
        out.bytes.append(UInt8(ascii: "\""))

        var previousSection = 0
        out.column("section", elements) { element, bytes in
            JSONWriter.append(element.section - previousSection, to: &bytes)
            previousSection = element.section
        }
        var previousItem = (section: -1, item: -1)
        out.column("item", elements.filter { $0.item != nil }) { element, bytes in
            let item = element.item ?? 0
            JSONWriter.append(item - (previousItem.section == element.section ? previousItem.item : -1), to: &bytes)
            previousItem = (element.section, item)
        }
        let frames = elements.map { axis.localFrame($0.frame) }
        out.column("cross", frames) { JSONWriter.append($0.cross, to: &$1) }
        out.column("crossLength", frames) { JSONWriter.append($0.crossLength, to: &$1) }
        out.column("scrollLength", frames) { JSONWriter.append($0.scrollLength, to: &$1) }
        var lanes = TileColumns.Lanes()
        var lastGap: Double?
        out.column("scroll", frames) { frame, bytes in
            if let gap = Self.gap(of: frame, lanes: lanes, lastGap: lastGap) {
                JSONWriter.append(gap, to: &bytes)
                lastGap = gap
            } else {
                bytes.append(UInt8(ascii: "["))
                JSONWriter.append(frame.scroll, to: &bytes)
                bytes.append(UInt8(ascii: "]"))
            }
            lanes.record(frame)
        }
        if elements.contains(where: { $0.zIndex != $0.kind.zIndex }) {
            out.column("zIndex", elements) { JSONWriter.append($0.zIndex, to: &$1) }
        }
        out.bytes.append(contentsOf: "}\n".utf8)
        return out.bytes
    }

    /// The gap that gives `frame`'s scroll position back to the bit after
    /// its lane's end: the last gap written when it does (so that gaps
    /// repeat), else the difference; nil when neither does, or the lane
    /// has no element yet.
    private static func gap(of frame: LocalFrame, lanes: TileColumns.Lanes, lastGap: Double?) -> Double? {
        guard let end = lanes.end(cross: frame.cross) else { return nil }
        for gap in [lastGap, frame.scroll - end].compactMap({ $0 })
        where TileColumns.position(after: end, gap: gap).bitPattern == frame.scroll.bitPattern {
            return gap
        }
        return nil
    }
}

extension TileMembers {
    /// `,\n "key": [v, v, …]`, each value written by `write`.
    mutating func column<Values: Sequence>(_ key: String, _ values: Values, _ write: (Values.Element, inout [UInt8]) -> Void) {
        bytes.append(contentsOf: ",\n \"".utf8)
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: "\": [".utf8)
        var first = true
        for value in values {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            write(value, &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
