import Foundation
import TesseraLayout

/// The elements of a column tile (`…/revisions/{R}/columns/{index}`, the
/// format the TesseraClient catalog's "Column tiles" describes): every
/// column as long as `count` says, differences summed within the bounds
/// of the JSON tile's numbers, a scroll gap only after an element of the
/// same lane. The frames are rebuilt with the encoder's own sum, so they
/// are the JSON tile's, bit for bit.
struct TileColumnsReader {
    typealias Failure = JSONMembers.Failure

    let members: JSONMembers
    let axis: Axis

    init(_ members: JSONMembers, axis: Axis) {
        self.members = members
        self.axis = axis
    }

    /// The largest item number (as the JSON tile's reader).
    static let maximumItem = Int.max >> 11
    static let maximumSection = Int(Int32.max)

    func elements() throws(Failure) -> [LayoutElement] {
        let count = try members.integer("count", in: 0...Int(Int32.max))
        let letters = Array(try members.string("kind", maximumLength: count).utf8)
        guard letters.count == count else { throw members.failure("kind", "expected \(count) letters (count), found \(letters.count)") }
        var kinds: [LayoutElement.Kind] = []
        kinds.reserveCapacity(count)
        for (offset, letter) in letters.enumerated() {
            guard let kind = TileColumns.kind(letter) else {
                throw members.failure("kind", "letter \(offset + 1) is not c, h, f or b (cell, header, footer, background)")
            }
            kinds.append(kind)
        }
        let cellCount = kinds.lazy.filter { $0 == .cell }.count
        let sections = try integers("section", count: count, within: Self.maximumSection)
        let items = try integers("item", count: cellCount, within: Self.maximumItem)
        let cross = try numbers("cross", count: count)
        let crossLengths = try numbers("crossLength", count: count)
        let scrollLengths = try numbers("scrollLength", count: count)
        let scrolls = try column("scroll", count: count)
        let zIndices = members.object["zIndex"] == nil ? nil : try integers("zIndex", count: count, within: 2)

        var elements: [LayoutElement] = []
        elements.reserveCapacity(count)
        var lanes = TileColumns.Lanes()
        var section = 0
        var previous = (section: -1, item: -1)
        var cell = 0
        for offset in 0..<count {
            section += sections[offset]
            guard (0...Self.maximumSection).contains(section) else {
                throw failure("section", offset, "the differences add up to \(section), not a section number (0 to \(Self.maximumSection))")
            }
            var item: Int?
            if kinds[offset] == .cell {
                let value = (previous.section == section ? previous.item : -1) + items[cell]
                guard (0...Self.maximumItem).contains(value) else {
                    throw failure("item", cell, "the differences add up to \(value), not an item number (0 to \(Self.maximumItem))")
                }
                item = value
                previous = (section, value)
                cell += 1
            }
            var frame = LocalFrame(cross: cross[offset], scroll: 0, crossLength: crossLengths[offset], scrollLength: scrollLengths[offset])
            frame.scroll = try scroll(scrolls[offset], at: offset, cross: frame.cross, lanes: lanes)
            lanes.record(frame)
            let zIndex = zIndices?[offset] ?? kinds[offset].zIndex
            guard zIndex >= -1 else { throw failure("zIndex", offset, "expected -1 to 2, found \(zIndex)") }
            elements.append(LayoutElement(kind: kinds[offset], section: section, item: item, frame: axis.screenRect(frame), zIndex: zIndex))
        }
        return elements
    }

    /// A gap after the lane's end, or `[position]`.
    private func scroll(_ value: JSONValue, at offset: Int, cross: Double, lanes: TileColumns.Lanes) throws(Failure) -> Double {
        switch value {
        case .number(let gap) where gap.isFinite:
            guard let end = lanes.end(cross: cross) else {
                throw failure("scroll", offset, "a gap, but no earlier element of the tile starts at \(JSONWriter.format(cross)) across the scroll axis")
            }
            let position = TileColumns.position(after: end, gap: gap)
            guard position.isFinite else { throw failure("scroll", offset, "the gap makes a position that is not finite") }
            return position
        case .array(let values):
            guard values.count == 1, case .number(let position) = values[0], position.isFinite else {
                throw failure("scroll", offset, "expected [position] with one finite number")
            }
            return position
        default:
            throw failure("scroll", offset, "expected a gap (a finite number) or [position], found \(value.typeName)")
        }
    }

    /// The array `key` of exactly `count` values.
    private func column(_ key: String, count: Int) throws(Failure) -> [JSONValue] {
        let values = try members.array(key, maximumCount: count)
        guard values.count == count else { throw members.failure(key, "expected \(count) values, found \(values.count)") }
        return values
    }

    private func numbers(_ key: String, count: Int) throws(Failure) -> [Double] {
        var numbers: [Double] = []
        numbers.reserveCapacity(count)
        for (offset, value) in try column(key, count: count).enumerated() {
            guard case .number(let number) = value, number.isFinite else { throw failure(key, offset, "expected a finite number") }
            numbers.append(number)
        }
        return numbers
    }

    /// Whole numbers from −`bound` to `bound`.
    private func integers(_ key: String, count: Int, within bound: Int) throws(Failure) -> [Int] {
        var integers: [Int] = []
        integers.reserveCapacity(count)
        for (offset, value) in try column(key, count: count).enumerated() {
            guard case .number(let number) = value, let integer = exactInteger(number), (-bound...bound).contains(integer) else {
                throw failure(key, offset, "expected a whole number from \(-bound) to \(bound)")
            }
            integers.append(integer)
        }
        return integers
    }

    private func failure(_ key: String, _ offset: Int, _ reason: String) -> Failure {
        JSONMembers.failure(members.path().appending(key).appending(offset), reason)
    }
}
