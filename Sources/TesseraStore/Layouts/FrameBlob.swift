import TesseraLayout

/// Cell frames as stored: four little-endian doubles per cell (cross,
/// scroll, cross length, scroll length), relative to the items origin.
/// Exact to the bit, unlike the R*Tree's 32-bit floats.
package enum FrameBlob {
    package static let bytesPerFrame = 32
    /// Frames per cell group (items k·n ..< (k+1)·n): 250 frames of 32
    /// bytes fill one 8 KiB page.
    package static let framesPerGroup = 250

    static func encode(_ frames: ArraySlice<LocalFrame>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: frames.count * bytesPerFrame)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            for frame in frames {
                for value in [frame.cross, frame.scroll, frame.crossLength, frame.scrollLength] {
                    raw.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
            }
        }
        return bytes
    }

    /// The number of frames in a blob of `byteCount` bytes.
    static func count(byteCount: Int) -> Int { byteCount / bytesPerFrame }

    /// Frame `index` of a blob.
    @inline(__always)
    static func frame(_ raw: UnsafeRawBufferPointer, at index: Int) -> LocalFrame {
        let offset = index * bytesPerFrame
        func value(_ field: Int) -> Double {
            Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + field * 8, as: UInt64.self)))
        }
        return LocalFrame(cross: value(0), scroll: value(1), crossLength: value(2), scrollLength: value(3))
    }

    static func decode(_ raw: UnsafeRawBufferPointer) -> [LocalFrame] {
        (0..<count(byteCount: raw.count)).map { frame(raw, at: $0) }
    }

    /// Calls `visit(item, frame)` for the frames of a group blob that may
    /// meet `bounds` (closed intervals: the exact test happens later).
    static func visit(_ raw: UnsafeRawBufferPointer, firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) {
        for offset in 0..<count(byteCount: raw.count) {
            let frame = frame(raw, at: offset)
            if frame.cross <= bounds.maxCross, frame.crossEnd >= bounds.minCross,
               frame.scroll <= bounds.maxScroll, frame.scrollEnd >= bounds.minScroll {
                visit(firstItem + offset, frame)
            }
        }
    }
}
