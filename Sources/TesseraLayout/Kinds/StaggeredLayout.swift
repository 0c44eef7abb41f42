/// `staggered`: a waterfall of equal columns filled one item at a time.
///
/// Parameters: `columns` n (required), `itemSpacing` 0 (between columns),
/// `lineSpacing` 0 (between items of a column), `placement` "shortest"
/// (default) or "roundRobin". A column is (avail − (n−1)·itemSpacing)/n
/// across. An item's length along the scroll axis is its `length`, else its
/// width / `aspectRatio` (default 1).
///
/// With "shortest" an item goes to the column whose bottom is smallest (ties
/// to the leftmost); an item with `columns` k > 1 takes the k adjacent columns
/// whose highest bottom is smallest (ties leftmost) and starts below all of
/// them. With "roundRobin" item i goes to column i mod n and `columns` is not
/// read. The first item of a column starts at the items top, later ones
/// `lineSpacing` below the column's bottom. Spacing wider than the available
/// extent (a negative column width) is an error naming `columns`.
///
/// A limit beyond the contract, so that a spec cannot exhaust memory: at
/// most ``maximumColumns`` columns.
///
/// Frames are not sorted along the scroll axis (a tall item in one column
/// ends after short items placed later in another), which is why rect
/// queries must not assume they are.
public struct StaggeredLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "staggered"

    /// The most columns a staggered layout may have.
    public static let maximumColumns = ColumnSet.maximumColumns

    /// Which column an item goes to.
    public enum Placement: String, Sendable, Hashable, Codable, CaseIterable {
        /// The shortest column, ties to the leftmost; items may span columns.
        case shortest
        /// Item i goes to column i mod n.
        case roundRobin
    }

    /// The number of columns (required).
    public var columns: Int
    /// Points between adjacent items across the scroll axis (0 by default).
    public var itemSpacing: Double
    /// Points between adjacent lines or items along the scroll axis (0 by default).
    public var lineSpacing: Double
    /// Which column an item goes to ("shortest" by default).
    public var placement: Placement

    /// A layout with the given parameters, checked when a section is laid out.
    public init(columns: Int, itemSpacing: Double = 0, lineSpacing: Double = 0, placement: Placement = .shortest) {
        self.columns = columns
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.placement = placement
    }

    /// The parameters in the order of the layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .integer("columns", \.columns, required: true),
        .number("itemSpacing", \.itemSpacing),
        .number("lineSpacing", \.lineSpacing),
        .choice("placement", \.placement),
    ]

    /// Reads the layout object of a spec, with the defaults above.
    /// - Throws: ``SpecError`` naming the parameter and the rule it breaks.
    public init(parameters: LayoutParameters) throws {
        self.init(columns: 0)  // required: read below, or an error
        try Self.parameterFields.read(parameters, into: &self)
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject { Self.parameterFields.json(of: self) }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        let columnWidth = try ColumnSet.columnWidth(
            columns: columns, itemSpacing: itemSpacing, lineSpacing: lineSpacing, available: context.available, path: path
        )
        return Placer(
            axis: context.axis,
            columnWidth: columnWidth,
            itemSpacing: itemSpacing,
            lineSpacing: lineSpacing,
            placement: placement,
            bottoms: Array(repeating: 0, count: columns),
            filled: Array(repeating: false, count: columns)
        )
    }

    struct Placer: ResumableItemPlacer {
        let axis: Axis
        let columnWidth: Double
        let itemSpacing: Double
        let lineSpacing: Double
        let placement: Placement
        /// The end of each column's last item (0 while the column is empty).
        var bottoms: [Double]
        /// Whether each column holds an item: the first one starts at 0,
        /// later ones `lineSpacing` below the bottom.
        var filled: [Bool]

        var openItems: Range<Int> { 0..<0 }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let count = bottoms.count
            var span = 1
            let first: Int
            switch placement {
            case .roundRobin:
                first = index % count
            case .shortest:
                span = try item.positiveInteger(.columns, at: location) ?? 1
                if span > count {
                    throw location.error(.columns, "\(span) columns requested, the layout has \(count)")
                }
                first = shortestRun(of: span)
            }
            var start = 0.0
            for column in first..<(first + span) where filled[column] {
                start = max(start, bottoms[column] + lineSpacing)
            }
            let width = Double(span) * columnWidth + Double(span - 1) * itemSpacing
            let length: Double
            if let explicit = try item.validLength(at: location) {
                length = explicit
            } else {
                length = width / axis.crossPerScroll(aspectRatio: try item.validAspectRatio(at: location) ?? 1)
            }
            let end = start + length
            for column in first..<(first + span) {
                bottoms[column] = end
                filled[column] = true
            }
            sink.emit(item: index, frame: LocalFrame(
                cross: Double(first) * (columnWidth + itemSpacing), scroll: start, crossLength: width, scrollLength: length
            ))
        }

        /// The first column of the `span` adjacent columns whose highest
        /// bottom is smallest, ties to the leftmost.
        private func shortestRun(of span: Int) -> Int {
            var best = 0
            var bestHeight = Double.infinity
            for first in 0...(bottoms.count - span) {
                var highest = bottoms[first]
                for column in (first + 1)..<(first + span) { highest = max(highest, bottoms[column]) }
                if highest < bestHeight {
                    best = first
                    bestHeight = highest
                }
            }
            return best
        }

        func finish(into sink: inout FrameSink) -> Double {
            bottoms.max() ?? 0
        }
    }
}

/// Equal columns across the available extent, shared by staggered and mosaic.
enum ColumnSet {
    /// The most columns a staggered or mosaic layout may have: placers keep
    /// a bottom per column, so the count bounds memory, as for mozaik.
    static let maximumColumns = OccupancyGrid.maximumColumns

    /// (avail − (n−1)·itemSpacing)/n, after checking the parameters.
    static func columnWidth(
        columns: Int, itemSpacing: Double, lineSpacing: Double, available: Double, path: JSONPath
    ) throws -> Double {
        if columns < 1 { throw path.appending("columns").error("must be at least 1, got \(columns)") }
        if columns > maximumColumns {
            throw path.appending("columns").error("must be at most \(maximumColumns), got \(columns)")
        }
        try LayoutParameters.checkSpacings(item: itemSpacing, line: lineSpacing, at: path)
        return try EqualParts.length(
            count: columns, spacing: itemSpacing, available: available, parts: "columns", path: path.appending("columns")
        )
    }
}
