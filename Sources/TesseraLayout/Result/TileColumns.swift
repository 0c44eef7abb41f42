/// What the column tile format (`…/revisions/{R}/columns/{index}`, a
/// tile's elements as columns) shares between its one encoder (the
/// server's and `tessera export --tiles`) and its decoder (the client's):
/// the letters of the kinds and the lanes that scroll positions are coded
/// against.
///
/// A lane is every element with the same start across the scroll axis,
/// bit for bit, in the order of the tile. An element's scroll position is
/// written as the gap after the end of the previous element of its lane
/// (its scroll position plus its length) when adding that gap to that end
/// gives the position back to the bit; otherwise as itself.
package enum TileColumns {
    /// `c`, `h`, `f` or `b`.
    package static func letter(_ kind: LayoutElement.Kind) -> UInt8 {
        switch kind {
        case .cell: UInt8(ascii: "c")
        case .header: UInt8(ascii: "h")
        case .footer: UInt8(ascii: "f")
        case .background: UInt8(ascii: "b")
        }
    }

    /// The kind of a letter of ``letter(_:)``; nil for any other byte.
    package static func kind(_ letter: UInt8) -> LayoutElement.Kind? {
        switch letter {
        case UInt8(ascii: "c"): .cell
        case UInt8(ascii: "h"): .header
        case UInt8(ascii: "f"): .footer
        case UInt8(ascii: "b"): .background
        default: nil
        }
    }

    /// The end along the scroll axis of the last element seen of each lane.
    package struct Lanes {
        private var ends: [UInt64: Double] = [:]

        package init() {}

        /// The end of the last element of the lane at `cross`, nil before its first.
        package func end(cross: Double) -> Double? {
            ends[cross.bitPattern]
        }

        /// `frame` is now the last element of its lane.
        package mutating func record(_ frame: LocalFrame) {
            ends[frame.cross.bitPattern] = frame.scroll + frame.scrollLength
        }
    }

    /// The scroll position `end + gap`, the one sum both sides compute.
    @inline(__always)
    package static func position(after end: Double, gap: Double) -> Double {
        end + gap
    }
}
