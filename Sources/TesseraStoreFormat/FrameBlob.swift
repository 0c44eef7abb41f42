import CTesseraPrefetch
import TesseraLayout

/// Cell frames as stored: per cell its cross, scroll, cross length and
/// scroll length, relative to the items origin, exact to the bit (unlike the
/// R*Tree's 32-bit floats). Two forms are read:
///
/// - **Compact** (written since schema version 4): an 8-byte mark, the
///   frame count, then each of the four values as a column. A column whose
///   cells share few distinct values (a grid's columns, a waterfall's
///   widths, a palette of aspect ratios) is stored as those values once and
///   one byte per cell naming one, or as one value when all cells share it;
///   any other column as one little-endian double per cell. About 11 bytes
///   per cell of a waterfall instead of 32.
/// - **Plain** (schema versions 1–3): four little-endian doubles per cell.
///
/// The mark is a NaN's bit pattern: a plain blob never begins with it,
/// since stored frames are finite.
// Its reads are inlinable (a module that is no product): a warm query
// reads every candidate frame through `View` from the store's module.
public enum FrameBlob {
    /// The bytes of a frame in the plain form.
    public static let bytesPerFrame = 32
    /// Frames per cell group (items k·n ..< (k+1)·n): a constant, inlined
    /// into the group arithmetic even of a debug build.
    @inlinable public static var framesPerGroup: Int { 250 }
    /// The first eight bytes of a compact blob (little-endian): a quiet NaN.
    public static let compactMark: UInt64 = 0x7FF8_5465_7373_6631
    /// The mark and the frame count (UInt16).
    public static let compactHeaderBytes = 10
    /// The most distinct values a column may name by one byte each.
    package static let maximumPalette = 255

    /// Frame `index` of `raw`, or nil when the blob holds fewer frames or
    /// cannot be read as either form.
    package static func frame(_ raw: UnsafeRawBufferPointer, at index: Int) -> LocalFrame? {
        guard let view = View(raw), index >= 0, index < view.count else { return nil }
        return view.frame(at: index)
    }

    /// Every frame of `raw`, or nil when it cannot be read as either form.
    package static func decode(_ raw: UnsafeRawBufferPointer) -> [LocalFrame]? {
        guard let view = View(raw) else { return nil }
        return (0..<view.count).map(view.frame(at:))
    }

    /// Calls `visit(item, frame)` for the frames of a group blob that may
    /// meet `bounds` (closed intervals: the exact test happens later).
    /// Returns false, visiting nothing, when the blob cannot be read.
    @inlinable
    package static func visit(_ raw: UnsafeRawBufferPointer, firstItem: Int, bounds: QueryBounds, _ visit: (Int, LocalFrame) -> Void) -> Bool {
        guard let view = View(raw) else { return false }
        for offset in 0..<view.count {
            if let frame = view.frame(at: offset, meeting: bounds) { visit(firstItem + offset, frame) }
        }
        return true
    }

    /// A blob read in place: where each of the four values of a frame is.
    public struct View {
        /// One of the four values: the double of cell `i` is at byte
        /// `values + 8 · (palette ? byte at indexes + i : i · stride)`.
        @usableFromInline
        struct Column {
            @usableFromInline var values: Int
            @usableFromInline var stride: Int
            /// Where the one-byte palette indexes begin, or -1.
            @usableFromInline var indexes: Int = -1

            @inlinable
            init(values: Int, stride: Int, indexes: Int = -1) {
                (self.values, self.stride, self.indexes) = (values, stride, indexes)
            }
        }

        @usableFromInline var raw: UnsafeRawBufferPointer
        public let count: Int
        @usableFromInline let columns: (Column, Column, Column, Column)

        /// The same view of a copy of its bytes at `copy`, read without
        /// checking them again (the columns are offsets into the bytes).
        @inlinable
        public func rebased(onto copy: UnsafeRawBufferPointer) -> View {
            precondition(copy.count == raw.count, "a view rebased onto bytes of another length")
            var view = self
            view.raw = copy
            return view
        }

        /// Nil when `raw` is neither a plain blob nor a well-formed compact one.
        @inlinable
        public init?(_ raw: UnsafeRawBufferPointer) {
            self.raw = raw
            guard raw.count >= 8, UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) == FrameBlob.compactMark else {
                guard raw.count % FrameBlob.bytesPerFrame == 0 else { return nil }
                count = raw.count / FrameBlob.bytesPerFrame
                columns = (Column(values: 0, stride: 4), Column(values: 8, stride: 4), Column(values: 16, stride: 4), Column(values: 24, stride: 4))
                return
            }
            guard raw.count >= FrameBlob.compactHeaderBytes else { return nil }
            let count = Int(UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)))
            var offset = FrameBlob.compactHeaderBytes
            guard let cross = Self.column(raw, count: count, at: &offset), let scroll = Self.column(raw, count: count, at: &offset),
                  let crossLength = Self.column(raw, count: count, at: &offset), let scrollLength = Self.column(raw, count: count, at: &offset),
                  offset == raw.count else { return nil }
            self.count = count
            columns = (cross, scroll, crossLength, scrollLength)
        }

        /// The column of `count` values at `offset` of a compact blob, and
        /// `offset` moved past it; nil when the bytes cannot hold it.
        @inlinable
        static func column(_ raw: UnsafeRawBufferPointer, count: Int, at offset: inout Int) -> Column? {
            guard offset < raw.count else { return nil }
            let paletteSize = Int(raw[offset])
            offset += 1
            if paletteSize == 0 {
                defer { offset += 8 * count }
                return Column(values: offset, stride: 1)
            }
            let values = offset
            offset += 8 * paletteSize
            guard paletteSize > 1 else { return Column(values: values, stride: 0) }
            guard offset + count <= raw.count else { return nil }
            // The largest index without an early exit: a loop the compiler vectorizes.
            var largest: UInt8 = 0
            for index in UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + count)]) { largest = Swift.max(largest, index) }
            guard Int(largest) < paletteSize else { return nil }
            defer { offset += count }
            return Column(values: values, stride: 0, indexes: offset)
        }

        @inlinable @inline(__always)
        func value(_ column: Column, _ index: Int) -> Double {
            let slot = column.indexes >= 0 ? Int(raw[column.indexes &+ index]) : index &* column.stride
            return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: column.values &+ 8 &* slot, as: UInt64.self)))
        }

        /// Asks the processor for the bytes of frames `range` (0 ..< count)
        /// without waiting for them (``tessera_prefetch``).
        @inlinable @inline(__always)
        public func prefetch(_ range: Range<Int>) {
            guard let base = raw.baseAddress, !range.isEmpty else { return }
            Self.prefetch(columns.0, range, base)
            Self.prefetch(columns.1, range, base)
            Self.prefetch(columns.2, range, base)
            Self.prefetch(columns.3, range, base)
        }

        @inlinable @inline(__always)
        static func prefetch(_ column: Column, _ range: Range<Int>, _ base: UnsafeRawPointer) {
            var first = column.values &+ 8 &* column.stride &* range.lowerBound
            var last = column.values &+ 8 &* column.stride &* (range.upperBound &- 1)
            if column.indexes >= 0 {
                // The palette's start, then the indexes.
                tessera_prefetch(base + column.values)
                first = column.indexes &+ range.lowerBound
                last = column.indexes &+ range.upperBound &- 1
            }
            while first < last {
                tessera_prefetch(base + first)
                first &+= 64
            }
            tessera_prefetch(base + last)
        }

        /// The bounds of every `leafSize` consecutive frames, in order, into
        /// `leaves` (room for `(count + leafSize - 1) / leafSize`): what
        /// adding each frame to empty bounds gives, computed from the
        /// columns decoded whole (frames are finite, so `<` picks as `min`
        /// and `max` do).
        @inlinable
        package func leafBounds(_ leafSize: Int, into leaves: UnsafeMutablePointer<QueryBounds>) {
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 &* Swift.max(count, 1)) { values in
                guard let base = values.baseAddress else { return }
                let (cross, scroll, crossLength, scrollLength) = (base, base + count, base + 2 &* count, base + 3 &* count)
                decode(columns.0, into: cross)
                decode(columns.1, into: scroll)
                decode(columns.2, into: crossLength)
                decode(columns.3, into: scrollLength)
                var leaf = 0
                var start = 0
                while start < count {
                    let end = Swift.min(start &+ leafSize, count)
                    var minCross = Double.infinity, maxCross = -Double.infinity
                    var minScroll = Double.infinity, maxScroll = -Double.infinity
                    for index in start..<end {
                        let crossEnd = cross[index] + crossLength[index], scrollEnd = scroll[index] + scrollLength[index]
                        minCross = cross[index] < minCross ? cross[index] : minCross
                        maxCross = crossEnd > maxCross ? crossEnd : maxCross
                        minScroll = scroll[index] < minScroll ? scroll[index] : minScroll
                        maxScroll = scrollEnd > maxScroll ? scrollEnd : maxScroll
                    }
                    (leaves + leaf).initialize(to: QueryBounds(minCross: minCross, maxCross: maxCross, minScroll: minScroll, maxScroll: maxScroll))
                    leaf &+= 1
                    start = end
                }
            }
        }

        /// Every value of `column`, in frame order, into `values` (room for `count`).
        @inlinable
        func decode(_ column: Column, into values: UnsafeMutablePointer<Double>) {
            guard let base = raw.baseAddress else { return }
            if column.indexes >= 0 {
                let indexes = (base + column.indexes).assumingMemoryBound(to: UInt8.self)
                let palette = base + column.values
                for index in 0..<count {
                    values[index] = Double(bitPattern: UInt64(littleEndian: palette.loadUnaligned(
                        fromByteOffset: 8 &* Int(indexes[index]), as: UInt64.self)))
                }
            } else if column.stride == 0 {
                values.update(repeating: Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(
                    fromByteOffset: column.values, as: UInt64.self))), count: count)
            } else {
                let first = base + column.values
                for index in 0..<count {
                    values[index] = Double(bitPattern: UInt64(littleEndian: first.loadUnaligned(
                        fromByteOffset: 8 &* column.stride &* index, as: UInt64.self)))
                }
            }
        }

        /// Frame `index` (0 ..< count).
        @inlinable @inline(__always)
        public func frame(at index: Int) -> LocalFrame {
            LocalFrame(
                cross: value(columns.0, index), scroll: value(columns.1, index),
                crossLength: value(columns.2, index), scrollLength: value(columns.3, index)
            )
        }

        /// Frame `index` (0 ..< count) when it may meet `bounds` (closed
        /// intervals), else nil: its scroll values first, its cross values
        /// only for a frame within the scroll range (a viewport's cells
        /// mostly span the width, and most of those a query reads lie above
        /// or below it).
        @inlinable @inline(__always)
        package func frame(at index: Int, meeting bounds: QueryBounds) -> LocalFrame? {
            let scroll = value(columns.1, index)
            guard scroll <= bounds.maxScroll else { return nil }
            let scrollLength = value(columns.3, index)
            guard scroll + scrollLength >= bounds.minScroll else { return nil }
            let cross = value(columns.0, index)
            guard cross <= bounds.maxCross else { return nil }
            let crossLength = value(columns.2, index)
            guard cross + crossLength >= bounds.minCross else { return nil }
            return LocalFrame(cross: cross, scroll: scroll, crossLength: crossLength, scrollLength: scrollLength)
        }
    }
}
