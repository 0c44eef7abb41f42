/// `mosaic`: aspect-ratio items whose lengths snap to a grid, where an item
/// may span every column that is level at the top (PluginLayout's mosaic,
/// after Lightbox).
///
/// Parameters: `columns` n (required), `lineMultiple` 20 (at least 1),
/// `itemSpacing` 0, `lineSpacing` 0. Columns are as in staggered. For each
/// item: the columns whose bottom is the lowest, in index order, and the
/// contiguous run of them that starts at the first; the item spans that run
/// unless its `canBeBig` is false, the previous item spanned several columns,
/// or its aspect ratio is below 1 and the run is every column. It starts
/// `lineSpacing` below the run's bottom (on the first row too); its length is
/// its width / aspect ratio rounded up to a multiple of `lineMultiple`, then
/// snapped to the bottom of a column that ends less than `lineMultiple` away.
///
/// The aspect ratio is the item's on-screen `aspectRatio`, width / height
/// (default 1), on both axes: "below 1" (portrait) keeps an item from
/// spanning every column, as PluginLayout's horizontal mosaic does. Lengths
/// use it as cross per scroll length: height / width for a horizontal spec.
///
/// The snap can only make a length negative when the columns have no width
/// (every item is then 0 long before the snap): such a length is 0 instead.
///
/// A limit beyond the contract, so that a spec cannot exhaust memory: at
/// most ``maximumColumns`` columns.
public struct MosaicLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "mosaic"

    /// The most columns a mosaic layout may have.
    public static let maximumColumns = ColumnSet.maximumColumns

    /// The number of columns (required).
    public var columns: Int
    /// Lengths snap up to a multiple of this (20 by default, at least 1).
    public var lineMultiple: Double
    /// Points between adjacent items across the scroll axis (0 by default).
    public var itemSpacing: Double
    /// Points between adjacent lines or items along the scroll axis (0 by default).
    public var lineSpacing: Double

    /// A layout with the given parameters, checked when a section is laid out.
    public init(columns: Int, lineMultiple: Double = 20, itemSpacing: Double = 0, lineSpacing: Double = 0) {
        self.columns = columns
        self.lineMultiple = lineMultiple
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
    }

    /// The parameters in the order of the layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .integer("columns", \.columns, required: true),
        .number("lineMultiple", \.lineMultiple, rule: .atLeastOne),
        .number("itemSpacing", \.itemSpacing),
        .number("lineSpacing", \.lineSpacing),
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
        try LayoutParameters.check(lineMultiple, rule: .atLeastOne, at: path.appending("lineMultiple"))
        let columnWidth = try ColumnSet.columnWidth(
            columns: columns, itemSpacing: itemSpacing, lineSpacing: lineSpacing, available: context.available, path: path
        )
        return Placer(
            axis: context.axis,
            columnWidth: columnWidth,
            lineMultiple: lineMultiple,
            itemSpacing: itemSpacing,
            lineSpacing: lineSpacing,
            bottoms: Array(repeating: 0, count: columns)
        )
    }

    struct Placer: ResumableItemPlacer {
        let axis: Axis
        let columnWidth: Double
        let lineMultiple: Double
        let itemSpacing: Double
        let lineSpacing: Double
        /// The end of each column's last item; 0 while the column is empty.
        var bottoms: [Double]
        var previousSpanned = false

        var openItems: Range<Int> { 0..<0 }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let aspectRatio = try item.validAspectRatio(at: location) ?? 1
            let ratio = axis.crossPerScroll(aspectRatio: aspectRatio)
            let canBeBig = try item.validCanBeBig(at: location) ?? true

            // The lowest columns, and the run of them from the first.
            let count = bottoms.count
            var first = 0
            for column in 1..<count where bottoms[column] < bottoms[first] { first = column }
            let bottom = bottoms[first]
            var run = 1
            while first + run < count, bottoms[first + run] == bottom { run += 1 }
            // A portrait item (on screen, on both axes) does not span every column.
            if !canBeBig || previousSpanned || (aspectRatio < 1 && run == count) { run = 1 }

            let start = bottom + lineSpacing
            let width = Double(run) * columnWidth + Double(run - 1) * itemSpacing
            var lines = (width / ratio) / lineMultiple
            let nearest = lines.rounded()
            if abs(lines - nearest) < 1e-9 { lines = nearest }
            var length = lines.rounded(.up) * lineMultiple

            // Snap to the first column, in order of bottom then index, that
            // ends within one line multiple of the item's end.
            let end = start + length
            var snap: Int?
            for column in 0..<count where abs(bottoms[column] - end) < lineMultiple {
                if let current = snap, bottoms[current] <= bottoms[column] { continue }
                snap = column
            }
            if let snap { length = max(0, bottoms[snap] - start) }

            for column in first..<(first + run) { bottoms[column] = start + length }
            previousSpanned = run > 1
            sink.emit(item: index, frame: LocalFrame(
                cross: Double(first) * (columnWidth + itemSpacing), scroll: start, crossLength: width, scrollLength: length
            ))
        }

        func finish(into sink: inout FrameSink) -> Double {
            bottoms.max() ?? 0
        }
    }
}
