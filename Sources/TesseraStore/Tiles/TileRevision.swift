import TesseraLayout

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
    static func of(_ directory: CachedLayout, layout: StoredLayout, tiles: TileGeometry) -> String {
        if let known = directory.tileRevision.withLock({ $0 }) { return known }
        let revision = hash(directory, layout: layout, tiles: tiles)
        directory.tileRevision.withLock { $0 = revision }
        return revision
    }

    private static func hash(_ directory: CachedLayout, layout: StoredLayout, tiles: TileGeometry) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + directory.sections.count * 120 + layout.cellCount / FrameBlob.framesPerGroup * 16)
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
        for (position, section) in directory.sections.enumerated() {
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
            let ordinals = directory.groups.ordinals(ofSection: position)
            for ordinal in ordinals {
                put(SectionGroups.firstItem(at: ordinal - ordinals.lowerBound))
                put(UInt64(bitPattern: directory.groups.checksums[ordinal]))
            }
        }
        let hash = UInt64(bitPattern: Checksum.of(bytes))
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for shift in stride(from: 60, through: 0, by: -4) { text.append(digits[Int((hash >> UInt64(shift)) & 0xF)]) }
        return String(decoding: text, as: UTF8.self)
    }
}
