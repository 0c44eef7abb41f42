import TesseraLayout

/// A layout's sections and cell groups, as a reader connection caches them.
struct CachedLayout {
    let sections: [SectionRecord]
    /// Per section, its groups in item order.
    let groups: [SectionGroups]
    /// The sections' scroll-axis ends, apart: a binary search over a few
    /// contiguous doubles misses the processor's cache far less often than
    /// one over the geometries.
    private let ends: [Double]

    init(sections: [SectionRecord], groups: [SectionGroups]) {
        self.sections = sections
        self.groups = groups
        ends = sections.map(\.geometry.end)
    }

    /// The non-empty sections whose scroll range meets [low, high], in order.
    func sections(from low: Double, through high: Double) -> [SectionRecord] {
        // Section ends never decrease: binary search for the first one that
        // reaches `low`, then walk until a start passes `high`.
        var lower = 0
        var upper = ends.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if ends[middle] < low { lower = middle + 1 } else { upper = middle }
        }
        var result: [SectionRecord] = []
        var index = lower
        while index < sections.count, sections[index].geometry.start <= high {
            if !sections[index].geometry.isEmpty { result.append(sections[index]) }
            index += 1
        }
        return result
    }
}

/// The cell groups of one section: first items, ids and exact bounds, with
/// a bounds index when there are many.
struct SectionGroups {
    var firstItems: [Int] = []
    var ids: [Int64] = []
    var bounds: [QueryBounds] = []
    var index: FrameIndex?

    mutating func finish() {
        if bounds.count > 64 { index = FrameIndex(bounds: bounds) }
    }

    func forEachCandidate(in query: QueryBounds, _ body: ((id: Int64, firstItem: Int)) -> Void) {
        func visit(_ position: Int) {
            let group = bounds[position]
            if group.minCross <= query.maxCross, group.maxCross >= query.minCross,
               group.minScroll <= query.maxScroll, group.maxScroll >= query.minScroll {
                body((ids[position], firstItems[position]))
            }
        }
        if let index {
            index.forEachCandidate(in: query, frameCount: bounds.count, visit)
        } else {
            for position in bounds.indices { visit(position) }
        }
    }
}
