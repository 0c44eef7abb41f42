import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraStoreFormat

/// Frame blobs: the compact form written since schema version 4, and the
/// plain form of older stores, both read to the bit.
@Suite("store: frame blobs, compact and plain")
struct FrameBlobTests {
    /// The frames' bit patterns, so that -0 and 0 differ.
    static func bits(_ frames: [LocalFrame]) -> [[UInt64]] {
        frames.map { [$0.cross.bitPattern, $0.scroll.bitPattern, $0.crossLength.bitPattern, $0.scrollLength.bitPattern] }
    }

    /// A column of `count` values drawn from `distinct` values (all
    /// different when `distinct` is nil), with zeros of both signs and
    /// values that differ in their last bit only.
    static func column(_ count: Int, distinct: Int?, using random: inout SeededRandom) -> [Double] {
        let pool = (0..<(distinct ?? count)).map { index -> Double in
            switch index % 5 {
            case 0: Double(index) * 0.1
            case 1: index % 10 == 1 ? -0.0 : 1e300 / Double(index)
            case 2: (Double(index) / 3).nextUp
            case 3: Double.leastNonzeroMagnitude * Double(index)
            default: Double(random.next() % 1_000_000) / 7
            }
        }
        return (0..<count).map { index in distinct == nil ? pool[index] : pool[Int(random.next() % UInt64(pool.count))] }
    }

    @Test("random groups come back bit for bit from the compact form, whatever each column's number of distinct values")
    func roundTrip() throws {
        var random = SeededRandom(seed: 0xF8A3)
        for trial in 0..<2_000 {
            let count = trial < 260 ? trial : Int(random.next() % 251)
            let shapes: [Int?] = [1, 2, 6, 200, 219, 255, nil]
            var columns: [[Double]] = []
            for _ in 0..<4 { columns.append(Self.column(count, distinct: shapes[Int(random.next() % UInt64(shapes.count))], using: &random)) }
            let frames = (0..<count).map { LocalFrame(cross: columns[0][$0], scroll: columns[1][$0], crossLength: columns[2][$0], scrollLength: columns[3][$0]) }
            let blob = FrameBlob.encode(frames[...])
            let decoded = try #require(blob.withUnsafeBytes(FrameBlob.decode), "trial \(trial)")
            #expect(Self.bits(decoded) == Self.bits(frames), "trial \(trial)")
            // Never larger than the plain form, but for its 10-byte header and a byte per column.
            #expect(blob.count <= FrameBlob.compactHeaderBytes + 4 + frames.count * FrameBlob.bytesPerFrame, "trial \(trial)")
            blob.withUnsafeBytes { raw in
                for index in [0, count / 2, count - 1] where count > 0 {
                    #expect(FrameBlob.frame(raw, at: index).map { Self.bits([$0]) } == Self.bits([frames[index]]))
                }
                #expect(FrameBlob.frame(raw, at: count) == nil)
                // Each leaf's bounds, a column at a time, are what adding its frames one by one gives.
                let leafCount = (count + CachedFrames.leafSize - 1) / CachedFrames.leafSize
                let leaves = [QueryBounds](unsafeUninitializedCapacity: leafCount) { buffer, initialized in
                    if let base = buffer.baseAddress { FrameBlob.View(raw)?.leafBounds(CachedFrames.leafSize, into: base) }
                    initialized = leafCount
                }
                let expected = stride(from: 0, to: count, by: CachedFrames.leafSize).map { start in
                    frames[start..<min(start + CachedFrames.leafSize, count)].reduce(into: QueryBounds.empty) { $0.add($1) }
                }
                #expect(leaves == expected, "trial \(trial)")
            }
        }
    }

    /// What a query of `bounds` visits, from the blob and from its cached
    /// copy: the frames that meet it as closed intervals, in item order, to the bit.
    @Test("a query visits exactly the frames that meet its bounds, from the blob in place and from the frame cache's copy, of any count")
    func visitEqualsFilter() throws {
        var random = SeededRandom(seed: 0x7153)
        for trial in 0..<400 {
            // A group's size mostly; one trial in ten larger than 64 of the
            // cache's leaves (1,024 frames), which it reads 64 at a time.
            let count = trial % 10 == 9 ? 1_000 + Int(random.next() % 1_200) : Int(random.next() % 251)
            let frames = (0..<count).map { _ in
                LocalFrame(cross: random.double(0...300).rounded(), scroll: random.double(0...5_000).rounded(),
                           crossLength: random.double(0...120).rounded(), scrollLength: random.double(0...200).rounded())
            }
            // Compact, and plain as older stores wrote it.
            let plain = frames.flatMap { frame in
                [frame.cross, frame.scroll, frame.crossLength, frame.scrollLength].flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
            }
            for blob in [FrameBlob.encode(frames[...]), plain] {
                let cached = try blob.withUnsafeBytes { try CachedFrames.verified($0, checksum: Checksum.of($0)).get() }
                for _ in 0..<8 {
                    // Edges on frames' own values too: the intervals are closed.
                    let edge = frames.isEmpty ? 0 : frames[Int(random.next() % UInt64(count))].scroll
                    let minScroll = random.chance(0.3) ? edge : random.double(-100...5_100)
                    let minCross = random.double(-50...300)
                    let bounds = QueryBounds(minCross: minCross, maxCross: minCross + random.double(0...350),
                                             minScroll: minScroll, maxScroll: minScroll + random.double(0...900))
                    let expected = frames.indices.filter { index in
                        let frame = frames[index]
                        return frame.cross <= bounds.maxCross && frame.crossEnd >= bounds.minCross
                            && frame.scroll <= bounds.maxScroll && frame.scrollEnd >= bounds.minScroll
                    }
                    var inPlace: [(Int, LocalFrame)] = []
                    #expect(blob.withUnsafeBytes { FrameBlob.visit($0, firstItem: 500, bounds: bounds) { inPlace.append(($0, $1)) } })
                    var fromCache: [(Int, LocalFrame)] = []
                    cached.visit(firstItem: 500, bounds: bounds) { fromCache.append(($0, $1)) }
                    for visited in [inPlace, fromCache] {
                        #expect(visited.map(\.0) == expected.map { $0 + 500 }, "trial \(trial) bounds \(bounds)")
                        #expect(Self.bits(visited.map(\.1)) == Self.bits(expected.map { frames[$0] }), "trial \(trial)")
                    }
                }
            }
        }
    }

    @Test("a waterfall's group: two columns of x, one width, six heights and scrolls that never repeat take 2,586 bytes, not 8,000")
    func waterfallSize() throws {
        let heights = [100.0, 133.5, 75.25, 200.0, 160.0, 90.125]
        var tops = [0.0, 0.0]
        var frames: [LocalFrame] = []
        for item in 0..<250 {
            let column = tops[0] <= tops[1] ? 0 : 1
            let height = heights[item % heights.count]
            frames.append(LocalFrame(cross: Double(column) * 197, scroll: tops[column], crossLength: 193, scrollLength: height))
            tops[column] += height + 4
        }
        let blob = FrameBlob.encode(frames[...])
        // Header 10; x: 1 + 2·8 + 250; y: 1 + 250·8 (fewer than 219 distinct values would be a palette); width: 1 + 8; height: 1 + 6·8 + 250.
        #expect(Set(frames.map(\.scroll)).count > 218)
        #expect(blob.count == 10 + (1 + 16 + 250) + (1 + 2_000) + (1 + 8) + (1 + 48 + 250))
        #expect(blob.withUnsafeBytes(FrameBlob.decode) == frames)
        #expect(FrameBlob.encodePlain(frames[...]).count == 8_000)
    }

    @Test("plain blobs of older stores are read as four doubles per frame")
    func plainForm() throws {
        var random = SeededRandom(seed: 31)
        let frames = (0..<250).map { _ in
            LocalFrame(cross: Double(random.next() % 400), scroll: Double(random.next() % 100_000) / 3, crossLength: 10, scrollLength: 0.1)
        }
        let plain = FrameBlob.encodePlain(frames[...])
        #expect(plain.count == 8_000)
        #expect(plain.withUnsafeBytes(FrameBlob.decode).map(Self.bits) == Self.bits(frames))
        #expect([UInt8]().withUnsafeBytes(FrameBlob.decode) == [])
        // The compact mark is a NaN: no finite frame's first double has its bits.
        #expect(Double(bitPattern: FrameBlob.compactMark).isNaN)
    }

    @Test("bytes that are neither form are refused, never read as other frames")
    func malformed() throws {
        let frames = (0..<40).map { LocalFrame(cross: Double($0 % 4) * 10, scroll: Double($0 / 4) * 12, crossLength: 10, scrollLength: Double($0)) }
        let blob = FrameBlob.encode(frames[...])
        func readable(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { FrameBlob.View($0) != nil } }
        #expect(readable(blob))
        // Every truncation and one byte more.
        for length in 0..<blob.count where length >= 8 {
            #expect(!readable(Array(blob.prefix(length))), "\(length) bytes")
        }
        #expect(!readable(blob + [0]))
        // A plain blob must hold whole frames.
        #expect(!readable([UInt8](repeating: 0, count: 33)))
        // A palette index past the palette: cross has 4 values, its indexes follow the header and the values.
        var wrongIndex = blob
        let crossIndexes = FrameBlob.compactHeaderBytes + 1 + 4 * 8
        #expect(wrongIndex[FrameBlob.compactHeaderBytes] == 4)
        wrongIndex[crossIndexes + 5] = 4
        #expect(!readable(wrongIndex))
        wrongIndex[crossIndexes + 5] = 3
        #expect(readable(wrongIndex))
        // A count larger than the columns hold.
        var wrongCount = blob
        wrongCount[8] = 41
        #expect(!readable(wrongCount))
        #expect(wrongCount.withUnsafeBytes { FrameBlob.visit($0, firstItem: 0, bounds: .empty) { _, _ in } } == false)
    }
}
