import Testing
@testable import TesseraLayout

@Suite("shared helpers: section search, content size, overhang, equal parts")
struct SharedHelperTests {
    @Test("the section search equals a linear filter of the sections meeting the range")
    func sectionSearch() {
        // Starts and ends never decrease; empty sections have start == end.
        let starts: [Double] = [0, 10, 10, 25, 40, 40, 40, 70]
        let ends: [Double] = [10, 10, 20, 30, 40, 40, 60, 90]
        for low in stride(from: -5.0, through: 95, by: 2.5) {
            for high in stride(from: low, through: 100, by: 5) {
                let range = SectionSearch.sections(
                    from: low, through: high, count: starts.count, end: { ends[$0] }, start: { starts[$0] }
                )
                let meeting = starts.indices.filter { ends[$0] >= low && starts[$0] <= high }
                #expect(meeting.allSatisfy(range.contains), "low \(low), high \(high)")
                // Sections in the range but not meeting it can only be
                // empty ones between meeting ones.
                for index in range where !meeting.contains(index) { #expect(starts[index] == ends[index]) }
            }
        }
        #expect(SectionSearch.sections(from: 0, through: 10, count: 0, end: { _ in 0 }, start: { _ in 0 }).isEmpty)
    }

    @Test("content size from the axis")
    func contentSize() {
        #expect(Axis.vertical.size(crossExtent: 390, contentLength: 1000) == Size(width: 390, height: 1000))
        #expect(Axis.horizontal.size(crossExtent: 390, contentLength: 1000) == Size(width: 1000, height: 390))
    }

    @Test("overhang: how far cells reach outside their section, 0 without cells")
    func overhang() {
        func geometry(cellSpan: ClosedRange<Double>?) -> SectionGeometry {
            SectionGeometry(
                index: 0, start: 100, header: Supplementary(size: 10), footer: nil, background: false,
                scrollStartInset: 5, scrollEndInset: 0, crossStartInset: 0, itemCount: 1, itemsExtent: 50, cellSpan: cellSpan
            )
        }
        // Items origin 115, end 165.
        #expect(geometry(cellSpan: nil).overhang == 0)
        #expect(geometry(cellSpan: -30...10).overhang == 15)
        #expect(geometry(cellSpan: 0...70).overhang == 20)
        #expect(geometry(cellSpan: 5...40).overhang == -10)
    }

    @Test("equal parts: the length of each, and the error when spacing passes the extent")
    func equalParts() throws {
        #expect(try EqualParts.length(count: 3, spacing: 10, available: 320, parts: "columns", path: .root) == 100)
        #expect(throws: SpecError(path: "x", reason: "3 units need 40 points of gutters, more than the 30 available")) {
            try EqualParts.length(count: 3, spacing: 20, available: 30, parts: "units", gaps: "gutters", path: .root.appending("x"))
        }
    }

    @Test("bounds grow to hold frames and other bounds")
    func bounds() {
        var bounds = QueryBounds.empty
        bounds.add(LocalFrame(cross: 1, scroll: 2, crossLength: 3, scrollLength: 4))
        bounds.add(QueryBounds(minCross: -1, maxCross: 0, minScroll: 10, maxScroll: 12))
        #expect(bounds == QueryBounds(minCross: -1, maxCross: 4, minScroll: 2, maxScroll: 12))
        #expect(bounds.mayIntersect(QueryBounds(minCross: 4, maxCross: 9, minScroll: 12, maxScroll: 20)))
        #expect(!bounds.mayIntersect(QueryBounds(minCross: 4.5, maxCross: 9, minScroll: 0, maxScroll: 20)))
    }
}
