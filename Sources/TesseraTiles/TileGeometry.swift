import TesseraLayout
import TesseraStore

/// How a layout is cut into tiles: bands of ``length`` points along the
/// scroll axis, the whole cross extent each (the HTTP API article, the tile routes).
///
/// The length is chosen so that a phone's viewport needs at most 1.5 tiles
/// on average: a viewport of length V at a random offset meets 1 + V/T
/// tiles of length T on average, so T ≥ 2V. Vertical feeds start at 2048
/// points (2 × 844, an average phone's height, rounded up to a power of
/// two) and horizontal ones at 1024 (2 × 390, a phone's width, the other
/// dimension of its viewport). The length doubles for each doubling of the
/// cross extent past the largest phone's (430 points wide, 932 tall): a
/// wider container is a larger screen, with a longer viewport. It then
/// halves, down to 256 points, while a tile would hold more than
/// ``elementsPerTile`` elements on the layout's average: a dense layout
/// gets shorter tiles rather than heavier ones. Long sections need
/// nothing special (bands cut across sections, each tile names the
/// sections that pin within it); a carousel is whole in every tile its
/// band meets, so a very long one weighs on those tiles only.
///
/// Everything here derives from the stored layout, so every server of a
/// fleet and `tessera export --tiles` cut the same tiles.
package struct TileGeometry: Sendable, Hashable {
    /// Along the scroll axis.
    package let length: Double
    package let count: Int
    let axis: Axis
    /// Elements lie within [−reach, contentLength + reach] along the
    /// scroll axis; the first tile starts and the last ends beyond that.
    let reach: Double
    let contentLength: Double

    /// The average number of elements a tile may hold before tiles get shorter.
    package static let elementsPerTile = 4096
    /// The shortest tile.
    static let minimumLength = 256.0
    /// At most this many tiles (a layout longer than that gets longer tiles).
    static let maximumCount = 1 << 30

    init(layout: StoredLayout, overhang: Double) {
        axis = layout.axis
        contentLength = layout.contentLength
        reach = max(0, overhang) + 1
        var length = 2048.0
        var screen = 430.0
        if layout.axis == .horizontal {
            length = 1024
            screen = 932
        }
        while layout.crossExtent > screen, length < 65_536 {
            length *= 2
            screen *= 2
        }
        if layout.contentLength > 0 {
            let density = Double(layout.elementCount) / layout.contentLength
            while length > Self.minimumLength, density * length > Double(Self.elementsPerTile) { length /= 2 }
        }
        while layout.contentLength / length > Double(Self.maximumCount) { length *= 2 }
        self.length = length
        count = max(1, Int((layout.contentLength / length).rounded(.up)))
    }

    /// The nominal band of tile `index`: [index·T, (index+1)·T).
    package func band(_ index: Int) -> (start: Double, end: Double) {
        (Double(index) * length, Double(index + 1) * length)
    }

    /// The rect whose elements tile `index` holds, in the answer's
    /// coordinates: its band, the first tile's reaching back and the last
    /// one's on past every element, the whole cross extent and beyond it
    /// (carousels' cells scrolled out of view).
    func rect(_ index: Int) -> Rect {
        var (start, end) = band(index)
        if index == 0 { start = -reach - length }
        if index == count - 1 { end = max(end, contentLength) + reach + length }
        let huge = 1e300
        return axis.screenRect(LocalFrame(cross: -huge, scroll: start, crossLength: 2 * huge, scrollLength: end - start))
    }
}
