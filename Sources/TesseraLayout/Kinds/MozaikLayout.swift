/// `mozaik`: a matrix of columns and rows whose items span blocks of cells,
/// like ADMozaikLayout.
///
/// Parameters: `columns` (an array of column widths) or `columnCount` n (n
/// equal columns that fill avail; when both are given `columns` wins),
/// `rowHeight` (required), `itemSpacing` 0 between columns, `lineSpacing` 0
/// between rows, `order` "dense" (default) or "ordered". Items span
/// `columns`×`rows` cells (1×1 by default).
///
/// Dense order puts each item in the first free block in reading order, so
/// small items fill the holes big ones left. Ordered keeps a skyline: an item
/// goes below everything already in the columns it spans, at the start
/// column where that is highest, and never above earlier items.
///
/// Limits beyond the contract, so that a spec cannot exhaust memory: at most
/// ``maximumColumns`` columns, and items of at most ``maximumRowSpan`` rows.
public struct MozaikLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "mozaik"

    /// The most columns a matrix may have.
    public static let maximumColumns = OccupancyGrid.maximumColumns
    /// The most rows one item may span.
    public static let maximumRowSpan = 65_536

    /// How the matrix's columns are given.
    public enum Columns: Sendable, Hashable {
        /// Each column's width, in points.
        case widths([Double])
        /// This many equal columns that fill the available extent.
        case count(Int)
    }

    /// Where an item goes.
    public enum Order: String, Sendable, Hashable, Codable, CaseIterable {
        /// The first free block in reading order: holes get back-filled.
        case dense
        /// Below every earlier item of the spanned columns (a skyline).
        case ordered
    }

    /// The matrix's columns. Explicit widths may add up to more or less than
    /// the available extent: the matrix is laid out as given, from the start.
    public var columns: Columns
    /// The length of one row along the scroll axis.
    public var rowHeight: Double
    /// Points between adjacent columns.
    public var itemSpacing: Double
    /// Points between adjacent rows.
    public var lineSpacing: Double
    /// Whether small items back-fill holes (dense) or stay below earlier items.
    public var order: Order

    /// A layout with the given parameters, checked when a section is laid out.
    public init(columns: Columns, rowHeight: Double, itemSpacing: Double = 0, lineSpacing: Double = 0, order: Order = .dense) {
        self.columns = columns
        self.rowHeight = rowHeight
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.order = order
    }

    /// The parameters after `columns` or `columnCount`, in the order of the
    /// layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .number("rowHeight", \.rowHeight, required: true),
        .number("itemSpacing", \.itemSpacing),
        .number("lineSpacing", \.lineSpacing),
        .choice("order", \.order),
    ]

    /// Reads the layout object of a spec, with the defaults above.
    /// - Throws: ``SpecError`` naming the parameter and the rule it breaks.
    public init(parameters: LayoutParameters) throws {
        let columns: Columns
        if let widths = try Self.widths(in: parameters) {
            columns = .widths(widths)
        } else if let count = try parameters.integer("columnCount") {
            columns = .count(count)
        } else {
            throw parameters.path.appending("columns").error("is required: an array of column widths (or give columnCount)")
        }
        self.init(columns: columns, rowHeight: 0)  // rowHeight is required: read below, or an error
        try Self.parameterFields.read(parameters, into: &self)
    }

    private static func widths(in parameters: LayoutParameters) throws -> [Double]? {
        guard let value = parameters.object["columns"], value != .null else { return nil }
        let path = parameters.path.appending("columns")
        guard case .array(let elements) = value else {
            throw path.error("must be an array of column widths, got \(value.typeName)")
        }
        return try elements.enumerated().map { index, element in
            guard case .number(let width) = element else {
                throw path.appending(index).error("must be a number, got \(element.typeName)")
            }
            return width
        }
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject {
        var object = JSONObject()
        switch columns {
        case .widths(let widths): object["columns"] = .array(widths.map { .number($0) })
        case .count(let count): object["columnCount"] = .number(Double(count))
        }
        Self.parameterFields.write(self, into: &object)
        return object
    }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        try LayoutParameters.check(rowHeight, rule: .nonNegative, at: path.appending("rowHeight"))
        try LayoutParameters.checkSpacings(item: itemSpacing, line: lineSpacing, at: path)
        return Placer(
            widths: try columnWidths(in: context),
            rowHeight: rowHeight,
            itemSpacing: itemSpacing,
            lineSpacing: lineSpacing,
            order: order
        )
    }

    /// The validated column widths for this section.
    private func columnWidths(in context: SectionContext) throws -> [Double] {
        let path = context.layoutPath
        switch columns {
        case .widths(let widths):
            if widths.isEmpty { throw path.appending("columns").error("must hold at least one column width") }
            if widths.count > Self.maximumColumns {
                throw path.appending("columns").error("must hold at most \(Self.maximumColumns) columns, got \(widths.count)")
            }
            for (index, width) in widths.enumerated() {
                try LayoutParameters.check(width, rule: .nonNegative, at: path.appending("columns").appending(index))
            }
            return widths
        case .count(let count):
            let countPath = path.appending("columnCount")
            if count < 1 { throw countPath.error("must be at least 1, got \(count)") }
            if count > Self.maximumColumns { throw countPath.error("must be at most \(Self.maximumColumns), got \(count)") }
            let width = try EqualParts.length(
                count: count, spacing: itemSpacing, available: context.available, parts: "columns", path: countPath
            )
            return Array(repeating: width, count: count)
        }
    }
}
