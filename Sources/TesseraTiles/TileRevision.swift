import TesseraLayout
import TesseraStore
import TesseraStoreFormat

/// A layout's tile revision: a hash of what its tiles are cut from (every
/// section's geometry, every cell group's frames checksum, the layout's
/// axis, extent and content length) and of how they are cut (the tile
/// length, the tile format). Never a row id, a counter or a time: every
/// server of a fleet on one store, and a store rebuilt from the same
/// specs, give the same revision for the same frames, so a CDN shares
/// their tiles, and a layout changed back to what it was gets its old
/// revision (and its cached tiles, still right) back.
enum TileRevision {
    /// Bumped whenever a tile's bytes would change for the same frames.
    static let format: UInt64 = 1

    /// 16 lowercase hex digits.
    static func of(_ whole: WholeLayout, tiles: TileGeometry) -> String {
        whole.derivedHash { Self.hash($0, tiles: tiles) }.paddedHex
    }

    private static func hash(_ whole: WholeLayout, tiles: TileGeometry) -> UInt64 {
        let layout = whole.layout
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + whole.sections.count * 120 + layout.cellCount / FrameBlob.framesPerGroup * 16)
        func put(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }
        func put(_ value: Double) { put(value.bitPattern) }
        func put(_ value: Int) { put(UInt64(bitPattern: Int64(value))) }
        put(format)
        put(layout.axis == .vertical ? 0 : 1)
        put(layout.crossExtent)
        put(layout.contentLength)
        put(tiles.length)
        for (position, section) in whole.sections.enumerated() {
            let geometry = section.geometry
            put(geometry.index)
            put(geometry.start)
            for supplementary in [geometry.header, geometry.footer] {
                put(supplementary.map { $0.pinned ? 2 : 1 } ?? 0)
                put(supplementary?.size ?? 0)
            }
            put(geometry.background ? 1 : 0)
            put(geometry.scrollStartInset)
            put(geometry.scrollEndInset)
            put(geometry.crossStartInset)
            put(geometry.itemCount)
            put(geometry.itemsExtent)
            put(geometry.cellSpan?.lowerBound ?? .nan)
            put(geometry.cellSpan?.upperBound ?? .nan)
            put(geometry.orthogonalContentLength ?? .nan)
            whole.forEachGroup(ofSection: position) { firstItem, checksum in
                put(firstItem)
                put(UInt64(bitPattern: checksum))
            }
        }
        // 0 stands for "not yet derived" beside the directory: a hash of 0 is made again each time.
        return UInt64(bitPattern: Checksum.of(bytes))
    }
}
