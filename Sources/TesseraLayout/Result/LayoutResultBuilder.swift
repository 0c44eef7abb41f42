/// Collects a streamed layout into a ``LayoutResult``.
struct LayoutResultBuilder: LayoutConsumer {
    let axis: Axis
    let crossExtent: Double
    private var sections: [SectionGeometry] = []
    private var cells: [[LocalFrame]] = []
    private var current: [LocalFrame] = []

    init(axis: Axis, crossExtent: Double) {
        self.axis = axis
        self.crossExtent = crossExtent
    }

    mutating func beginSection(_ index: Int, origin: SectionOrigin) throws {
        current = []
    }

    mutating func consumeCells(_ frames: [PlacedFrame], section: Int, origin: SectionOrigin) throws {
        for placed in frames {
            if placed.item == current.count {
                current.append(placed.frame)
            } else {
                // Kinds may write frames out of item order. The padding never
                // reaches a result: the engine's CellTracker throws at the end
                // of a section unless every item was written exactly once.
                if placed.item >= current.count {
                    current.append(contentsOf: repeatElement(LocalFrame(cross: 0, scroll: 0, crossLength: 0, scrollLength: 0), count: placed.item - current.count + 1))
                }
                current[placed.item] = placed.frame
            }
        }
    }

    mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws {
        sections.append(geometry)
        cells.append(geometry.isEmpty ? [] : current)
        current = []
    }

    func result(summary: LayoutSummary) -> LayoutResult {
        LayoutResult(summary: summary, sections: sections, cells: cells)
    }
}
