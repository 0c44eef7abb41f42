/// `grid`: items that take 1/n of a line, like PluginLayout's grid.
///
/// Parameters: `fraction` 1, `aspectRatio` 1, `itemSpacing` 0, `lineSpacing`
/// 0, `alignment` as flow. An item of fraction n is
/// (avail − (n−1)·itemSpacing)/n across and that / aspectRatio along the
/// scroll axis; then the flow rules place it.
public struct GridLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "grid"

    /// Items per line, for items without their own `fraction` (1 by default).
    public var fraction: Int
    /// The on-screen width / height of items without their own (1 by default).
    public var aspectRatio: Double
    /// Points between adjacent items across the scroll axis (0 by default).
    public var itemSpacing: Double
    /// Points between adjacent lines or items along the scroll axis (0 by default).
    public var lineSpacing: Double
    /// Where a line's items sit across it ("justified" by default).
    public var alignment: LineAlignment

    /// A layout with the given parameters, checked when a section is laid out.
    public init(
        fraction: Int = 1,
        aspectRatio: Double = 1,
        itemSpacing: Double = 0,
        lineSpacing: Double = 0,
        alignment: LineAlignment = .justified
    ) {
        self.fraction = fraction
        self.aspectRatio = aspectRatio
        self.itemSpacing = itemSpacing
        self.lineSpacing = lineSpacing
        self.alignment = alignment
    }

    /// The parameters in the order of the layout object; absent ones keep the defaults above.
    static let parameterFields: [ParameterField<Self>] = [
        .integer("fraction", \.fraction),
        .number("aspectRatio", \.aspectRatio, rule: .positive),
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
        if fraction < 1 { throw path.appending("fraction").error("must be at least 1, got \(fraction)") }
        try LayoutParameters.check(aspectRatio, rule: .positive, at: path.appending("aspectRatio"))
        try LayoutParameters.checkSpacings(item: itemSpacing, line: lineSpacing, at: path)
        return Placer(
            axis: context.axis,
            available: context.available,
            fraction: fraction,
            aspectRatio: aspectRatio,
            lines: LineBuilder(available: context.available, itemSpacing: itemSpacing, lineSpacing: lineSpacing, alignment: alignment)
        )
    }

    struct Placer: ResumableItemPlacer {
        let axis: Axis
        let available: Double
        let fraction: Int
        let aspectRatio: Double
        var lines: LineBuilder

        var openItems: Range<Int> { lines.openItems }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let itemFraction = try item.positiveInteger(.fraction, at: location) ?? fraction
            let ratio = axis.crossPerScroll(aspectRatio: try item.validAspectRatio(at: location) ?? aspectRatio)
            let crossLength = try EqualParts.length(
                count: itemFraction, spacing: lines.itemSpacing, available: available, parts: "items per line",
                path: item.fraction == nil
                    ? JSONPath.root.appending("sections").appending(location.section).appending("layout").appending("fraction")
                    : location.path.appending("fraction")
            )
            lines.add(index: index, crossLength: crossLength, scrollLength: crossLength / ratio, into: &sink)
        }

        func finish(into sink: inout FrameSink) -> Double {
            lines.finish(into: &sink)
        }
    }
}
