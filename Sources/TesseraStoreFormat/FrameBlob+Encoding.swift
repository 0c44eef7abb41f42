import TesseraLayout

extension FrameBlob {
    /// The compact form of `frames` (at most `UInt16.max`): each column as
    /// a palette when that is smaller than its doubles.
    package static func encode(_ frames: ArraySlice<LocalFrame>) -> [UInt8] {
        precondition(frames.count <= Int(UInt16.max), "a cell group holds at most 65,535 frames")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(compactHeaderBytes + 4 * (1 + 8 * frames.count))
        append(compactMark, to: &bytes)
        bytes.append(UInt8(truncatingIfNeeded: frames.count))
        bytes.append(UInt8(truncatingIfNeeded: frames.count >> 8))
        var column = [UInt64](repeating: 0, count: frames.count)
        for field in 0..<4 {
            for (offset, frame) in frames.enumerated() {
                let value = switch field {
                case 0: frame.cross
                case 1: frame.scroll
                case 2: frame.crossLength
                default: frame.scrollLength
                }
                column[offset] = value.bitPattern
            }
            appendColumn(column, to: &bytes)
        }
        return bytes
    }

    /// The plain form of schema versions 1–3: what older stores hold.
    package static func encodePlain(_ frames: ArraySlice<LocalFrame>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frames.count * bytesPerFrame)
        for frame in frames {
            for value in [frame.cross, frame.scroll, frame.crossLength, frame.scrollLength] { append(value.bitPattern, to: &bytes) }
        }
        return bytes
    }

    /// One column: a palette size byte (0 for plain doubles), then the
    /// palette's values and, for two or more, one index byte per cell.
    private static func appendColumn(_ column: [UInt64], to bytes: inout [UInt8]) {
        // A palette of k values costs 8k + n bytes (8 with no indexes when k is 1), against 8n.
        let limit = min(maximumPalette, (7 * column.count - 1) / 8)
        if limit >= 1, let palette = Palette(column, limit: limit) {
            bytes.append(UInt8(palette.values.count))
            for value in palette.values { append(value, to: &bytes) }
            if palette.values.count > 1 { bytes.append(contentsOf: palette.indexes) }
            return
        }
        bytes.append(0)
        for value in column { append(value, to: &bytes) }
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// The distinct bit patterns of a column in order of first use, and
    /// each cell's index among them; nil past `limit` distinct values.
    private struct Palette {
        var values: [UInt64] = []
        var indexes: [UInt8] = []

        init?(_ column: [UInt64], limit: Int) {
            indexes.reserveCapacity(column.count)
            // Open addressing over a power-of-two table at most half full: slot holds index + 1, 0 when free.
            let size = 1 << (64 - UInt64(max(2 * limit, 2) - 1).leadingZeroBitCount)
            var slots = [UInt16](repeating: 0, count: size)
            for pattern in column {
                var slot = Int(truncatingIfNeeded: (pattern &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size - 1)
                while true {
                    let held = Int(slots[slot])
                    if held == 0 {
                        guard values.count < limit else { return nil }
                        values.append(pattern)
                        slots[slot] = UInt16(values.count)
                        indexes.append(UInt8(values.count - 1))
                        break
                    }
                    if values[held - 1] == pattern {
                        indexes.append(UInt8(held - 1))
                        break
                    }
                    slot = (slot + 1) & (size - 1)
                }
            }
        }
    }
}
