/// `flow`: lines of explicitly sized items, like UICollectionViewFlowLayout.
///
/// Parameters: `itemSize` [w, h] (50×50) for items without `size`,
/// `itemSpacing` 0, `lineSpacing` 0, `alignment` "justified" (default),
/// "start", "center" or "end". With justified alignment the last line keeps
/// its items at `itemSpacing` from the start.
public struct FlowLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "flow"

    /// The size of items without their own `size` (50×50 by default).
    public var itemSize: Size
    /// Points between adjacent items across the scroll axis (0 by default).
    public var itemSpacing: Double
    /// Points between adjacent lines or items along the scroll axis (0 by default).
    public var lineSpacing: Double
    /// Where a line's items sit across it ("justified" by default).
    public var alignment: LineAlignment

    /// A layout with the given parameters, checked when a section is laid out.
    public init(
        itemSize: Size = Size(width: 50, height: 50),
        itemSpacing: Double = 0,
        lineSpacing: Double = 0,
        alignment: LineAlignment = .justified
    ) {
        self.itemSize = itemSize
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.alignment = alignment
    }

    /// The parameters in the order of the layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .size("itemSize", \.itemSize),
        .number("itemSpacing", \.itemSpacing),
        .number("lineSpacing", \.lineSpacing),
        .choice("alignment", \.alignment),
    ]

    /// Reads the layout object of a spec, with the defaults above.
    /// - Throws: ``SpecError`` naming the parameter and the rule it breaks.
    public init(parameters: LayoutParameters) throws {
        self.init()
        try Self.parameterFields.read(parameters, into: &self)
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject { Self.parameterFields.json(of: self) }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        try LayoutParameters.check(itemSize.width, rule: .nonNegative, at: path.appending("itemSize").appending(0))
        try LayoutParameters.check(itemSize.height, rule: .nonNegative, at: path.appending("itemSize").appending(1))
        try LayoutParameters.checkSpacings(item: itemSpacing, line: lineSpacing, at: path)
        return Placer(
            axis: context.axis,
            defaultSize: itemSize,
            lines: LineBuilder(available: context.available, itemSpacing: itemSpacing, lineSpacing: lineSpacing, alignment: alignment)
        )
    }

    struct Placer: ResumableItemPlacer {
        let axis: Axis
        let defaultSize: Size
        var lines: LineBuilder

        var openItems: Range<Int> { lines.openItems }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let lengths = axis.lengths(of: try item.validSize(at: location) ?? defaultSize)
            lines.add(index: index, crossLength: lengths.cross, scrollLength: lengths.scroll, into: &sink)
        }

        func finish(into sink: inout FrameSink) -> Double {
            lines.finish(into: &sink)
        }
    }
}
