/// `scaledGrid`: square cells, items of s×s cells, gaps back-filled, like
/// PrimeGrid's GridLayout.
///
/// Parameters: `divisions` N (required), `spacing` 0, `aspectRatio` 1 (one
/// cell's on-screen width / height). A cell is c = (avail − (N−1)·spacing)/N
/// across and c / aspectRatio along the scroll axis; an item of `scale` s
/// (default 1, clamped to N) covers s×s cells and the spacing between them.
///
/// Items are placed from a cursor: each takes the first free s×s block from
/// the cursor on, in reading order, and the cursor moves past the item only
/// when the item landed on it. A big item that does not fit at the cursor
/// leaves the cursor where it is, so the small items after it fill the gap.
public struct ScaledGridLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "scaledGrid"

    /// The most divisions a grid may have.
    public static let maximumDivisions = OccupancyGrid.maximumColumns

    /// The number of cells across the available extent.
    public var divisions: Int
    /// Points between adjacent cells, across and along the scroll axis.
    public var spacing: Double
    /// One cell's on-screen width / height.
    public var aspectRatio: Double

    /// A layout with the given parameters, checked when a section is laid out.
    public init(divisions: Int, spacing: Double = 0, aspectRatio: Double = 1) {
        self.divisions = divisions
        self.spacing = spacing
        self.aspectRatio = aspectRatio
    }

    /// The parameters in the order of the layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .integer("divisions", \.divisions, required: true),
        .number("spacing", \.spacing),
        .number("aspectRatio", \.aspectRatio, rule: .positive),
    ]

    /// Reads the layout object of a spec, with the defaults above.
    /// - Throws: ``SpecError`` naming the parameter and the rule it breaks.
    public init(parameters: LayoutParameters) throws {
        self.init(divisions: 0)  // required: read below, or an error
        try Self.parameterFields.read(parameters, into: &self)
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject { Self.parameterFields.json(of: self) }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        if divisions < 1 { throw path.appending("divisions").error("must be at least 1, got \(divisions)") }
        if divisions > Self.maximumDivisions {
            throw path.appending("divisions").error("must be at most \(Self.maximumDivisions), got \(divisions)")
        }
        try LayoutParameters.check(spacing, rule: .nonNegative, at: path.appending("spacing"))
        try LayoutParameters.check(aspectRatio, rule: .positive, at: path.appending("aspectRatio"))
        let cell = try EqualParts.length(
            count: divisions, spacing: spacing, available: context.available, parts: "divisions", path: path.appending("divisions")
        )
        return Placer(
            divisions: divisions,
            spacing: spacing,
            cellCross: cell,
            cellScroll: cell / context.crossPerScroll(aspectRatio: aspectRatio)
        )
    }

    struct Placer: ResumableItemPlacer {
        let divisions: Int
        let spacing: Double
        let cellCross: Double
        let cellScroll: Double
        var cells: OccupancyGrid
        var cursorRow = 0
        var cursorColumn = 0
        /// Per scale s, at s − 1: a position (row·N + column) before which no
        /// s×s block is free, or −1 before the first item of that scale. A
        /// block that does not fit also keeps every bigger block out, which
        /// is why a new scale starts from the smaller scales' hints. Without
        /// hints, big items after a hole the cursor never leaves (N = 3:
        /// scale 1, then scale 3 items) would rescan the grid each time.
        var hints: [Int]
        var extent = 0.0

        init(divisions: Int, spacing: Double, cellCross: Double, cellScroll: Double) {
            self.divisions = divisions
            self.spacing = spacing
            self.cellCross = cellCross
            self.cellScroll = cellScroll
            cells = OccupancyGrid(columns: divisions)
            hints = Array(repeating: -1, count: divisions)
        }

        var openItems: Range<Int> { 0..<0 }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let scale = min(try item.positiveInteger(.scale, at: location) ?? 1, divisions)
            if cursorColumn >= divisions {
                cursorRow += 1
                cursorColumn = 0
            }
            let hint = hint(forScale: scale)
            let cursor = cursorRow * divisions + cursorColumn
            let start = max(cursor, hint)
            let found = cells.firstFree(width: scale, height: scale, row: start / divisions, column: start % divisions)
            cells.reserve(row: found.row, column: found.column, width: scale, height: scale)
            hints[scale - 1] = found.row * divisions + found.column
            if found.row == cursorRow && found.column == cursorColumn { cursorColumn += scale }

            let span = Double(scale - 1) * spacing
            let frame = LocalFrame(
                cross: Double(found.column) * (cellCross + spacing),
                scroll: Double(found.row) * (cellScroll + spacing),
                crossLength: Double(scale) * cellCross + span,
                scrollLength: Double(scale) * cellScroll + span
            )
            extent = max(extent, frame.scrollEnd)
            sink.emit(item: index, frame: frame)
        }

        private func hint(forScale scale: Int) -> Int {
            let own = hints[scale - 1]
            if own >= 0 { return own }
            var seeded = 0
            for smaller in 0..<(scale - 1) { seeded = max(seeded, hints[smaller]) }
            return seeded
        }

        func finish(into sink: inout FrameSink) -> Double {
            extent
        }
    }
}
