import Testing
import TesseraTestSupport
@testable import TesseraLayout

/// Rect queries on sections of hundreds to thousands of items, so that the
/// bounds index has many 64-cell leaves and, past 4096 cells, several
/// branches: its pruning is checked against a filter over every element.
@Suite("rect queries on large sections equal a brute-force filter")
struct LargeSectionQueryTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: String
        var axis: Axis
        var seed: UInt64
        /// One section past 4096 cells (two index branches), or two to three
        /// sections of a few hundred to a few thousand cells.
        var sections: ClosedRange<Int> { seed == 1 ? 1...1 : 2...3 }
        var items: ClosedRange<Int> { seed == 1 ? 4097...5000 : 300...4000 }
        var testDescription: String { "\(kind) \(axis.rawValue) seed \(seed)" }
    }

    static let cases: [Case] = allKinds.flatMap { kind in
        Axis.allCases.flatMap { axis in (1...2).map { Case(kind: kind, axis: axis, seed: $0) } }
    }

    @Test("random, edge-touching and edge-aligned rects, every kind, both axes", arguments: cases)
    func matchesBruteForce(_ testCase: Case) throws {
        var generator = RandomSpecGenerator(seed: testCase.seed, kinds: [testCase.kind])
        let (json, extent) = generator.spec(sections: testCase.sections, items: testCase.items, axis: testCase.axis)
        let result = try LayoutEngine().layout(Spec(jsonText: json), crossExtent: extent)
        let all = result.elements
        let largest = result.sections.map(\.itemCount).max() ?? 0
        #expect(largest > (testCase.seed == 1 ? 4096 : 64), "\(testCase.testDescription): the largest section has \(largest) cells")
        var random = SeededRandom(seed: testCase.seed &* 7919 &+ UInt64(testCase.kind.utf8.count))
        var rects = Self.randomRects(count: 20, content: result.contentSize, random: &random)
        var touching: [(rect: Rect, element: LayoutElement)] = []
        for _ in 0..<15 {
            guard let element = all.randomElement(using: &random) else { break }
            for rect in Self.touchingRects(element.frame) { touching.append((rect, element)) }
            if let other = all.randomElement(using: &random) { rects.append(Self.alignedRect(element.frame, other.frame)) }
            rects.append(element.frame)
        }
        for rect in rects {
            let expected = all.filter { $0.frame.intersects(rect) }
            #expect(result.elements(in: rect) == expected, "\(testCase.testDescription) rect \(rect)")
        }
        for (rect, element) in touching {
            let found = result.elements(in: rect)
            #expect(found == all.filter { $0.frame.intersects(rect) }, "\(testCase.testDescription) rect \(rect)")
            // The contract's open-interior rule: an element is never returned
            // for a rect that only touches one of its edges.
            #expect(!found.contains(element), "\(testCase.testDescription): \(element) returned for \(rect)")
        }
    }

    /// Viewport-sized and larger rects anywhere around the content, empty ones included.
    static func randomRects(count: Int, content: Size, random: inout SeededRandom) -> [Rect] {
        (0..<count).map { index in
            let width = index % 10 == 0 ? 0 : random.quarter(1...(index % 3 == 0 ? content.width : 400))
            let height = index % 10 == 5 ? 0 : random.quarter(1...(index % 3 == 0 ? content.height : 900))
            return Rect(
                x: random.quarter(-50...(content.width + 50)),
                y: random.quarter(-50...(content.height + 50)),
                width: width,
                height: height
            )
        }
    }

    /// Rects that share an edge (or a corner) with `frame` and lie outside
    /// it. A rect before the frame keeps only if rounding put its far edge
    /// exactly on the frame's (x − 25 + 25 need not give x back).
    static func touchingRects(_ frame: Rect) -> [Rect] {
        [
            Rect(x: frame.maxX, y: frame.minY, width: 25, height: frame.height),
            Rect(x: frame.minX - 25, y: frame.minY, width: 25, height: frame.height),
            Rect(x: frame.minX, y: frame.maxY, width: frame.width, height: 25),
            Rect(x: frame.minX, y: frame.minY - 25, width: frame.width, height: 25),
            Rect(x: frame.maxX, y: frame.maxY, width: 25, height: 25),
        ].filter { rect in
            rect.minX == frame.maxX || rect.maxX == frame.minX || rect.minY == frame.maxY || rect.maxY == frame.minY
        }
    }

    /// A rect whose edges are the edges of two elements: its left and top at
    /// one's right and bottom, reaching to the other's left and top.
    static func alignedRect(_ first: Rect, _ second: Rect) -> Rect {
        let minX = min(first.maxX, second.minX), maxX = max(first.maxX, second.minX)
        let minY = min(first.maxY, second.minY), maxY = max(first.maxY, second.minY)
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
