/// Computes layouts: a spec and a cross extent in, frames out.
///
/// ```swift
/// let spec = try Spec(jsonText: text)
/// let layout = try LayoutEngine().layout(spec, crossExtent: 390)
/// let visible = layout.elements(in: Rect(x: 0, y: 0, width: 390, height: 844))
/// ```
public struct LayoutEngine: Sendable {
    /// Bumped whenever any kind's geometry changes, so that stores discard
    /// layouts computed by an older engine.
    /// 2: a horizontal mosaic reads "aspectRatio < 1" on screen, as the contract says.
    package static let version = 2

    /// How many cells a consumer receives at most per call while streaming.
    public var chunkSize: Int

    /// An engine that streams at most `chunkSize` cells per call (at least 1).
    public init(chunkSize: Int = 4096) {
        self.chunkSize = max(1, chunkSize)
    }

    /// Computes the whole layout in memory.
    public func layout(_ spec: Spec, crossExtent: Double) throws -> LayoutResult {
        var builder = LayoutResultBuilder(axis: spec.axis, crossExtent: crossExtent)
        let summary = try run(spec, crossExtent: crossExtent, into: &builder)
        return builder.result(summary: summary)
    }

    /// Computes the layout and streams it to `consumer`, section by section
    /// and in chunks of cells.
    @discardableResult
    public func run<Consumer: LayoutConsumer>(
        _ spec: Spec,
        crossExtent: Double,
        into consumer: inout Consumer
    ) throws -> LayoutSummary {
        try Self.checkCrossExtent(crossExtent, axis: spec.axis)
        try LayoutParameters.check(spec.sectionSpacing, rule: .nonNegative, at: JSONPath.root.appending("sectionSpacing"))
        try Self.checkSectionIDs(spec.sections)
        var chain = SectionChain(sectionSpacing: spec.sectionSpacing)
        var cellCount = 0
        var elementCount = 0
        for (index, section) in spec.sections.enumerated() {
            let start = chain.nextStart
            let laidOut = try layoutSection(section, index: index, axis: spec.axis, crossExtent: crossExtent, start: start, into: &consumer)
            let geometry = chain.place(laidOut.geometry)
            try consumer.endSection(geometry, placer: laidOut.placer)
            cellCount += geometry.isEmpty ? 0 : geometry.itemCount
            elementCount += geometry.elementCount
        }
        return LayoutSummary(
            axis: spec.axis,
            crossExtent: crossExtent,
            contentLength: chain.end,
            sectionCount: spec.sections.count,
            cellCount: cellCount,
            elementCount: elementCount
        )
    }

    /// Section ids are identities: two sections with one id would make an
    /// update unable to tell which one changed.
    package static func checkSectionIDs(_ sections: [Section]) throws {
        var seen: [String: Int] = [:]
        for (index, section) in sections.enumerated() {
            guard let id = section.id else { continue }
            if let first = seen[id] {
                throw JSONPath.root.appending("sections").appending(index).appending("id")
                    .error("duplicate id \(id.quotedForMessage) (sections[\(first)] has it too)")
            }
            seen[id] = index
        }
    }

    /// Checks that a cross extent can be laid out.
    package static func checkCrossExtent(_ crossExtent: Double, axis: Axis) throws {
        let name = axis == .vertical ? "width" : "height"
        guard crossExtent.isFinite, crossExtent > 0 else {
            throw SpecError(path: "", reason: "the container \(name) must be a finite number above 0, got \(JSONWriter.format(crossExtent))")
        }
    }

    /// Lays out one section whose start is `start` (its start if it is not
    /// empty) and streams its cells; returns its geometry and final placer.
    package func layoutSection<Consumer: LayoutConsumer>(
        _ section: Section,
        index: Int,
        axis: Axis,
        crossExtent: Double,
        start: Double,
        into consumer: inout Consumer
    ) throws -> (geometry: SectionGeometry, placer: any ItemPlacer) {
        try layoutSection(section, index: index, axis: axis, crossExtent: crossExtent, start: start, resuming: nil, into: &consumer)
    }

    /// Goes on with a section from a placer saved after its first
    /// `itemCount` items: places the items from `itemCount` on and writes
    /// their frames, and again those of the placer's open items (their
    /// frames may change). The result is the same as laying the section out
    /// from its first item; the geometry's `cellSpan` covers only the frames
    /// written by this call. With `appended` (whose first item is item
    /// `itemCount`), the items from `itemCount` on are those, and
    /// `section.items` need hold only the items before them: an append
    /// reads none of the section's earlier items.
    package func resumeSection<Consumer: LayoutConsumer>(
        _ section: Section,
        index: Int,
        axis: Axis,
        crossExtent: Double,
        start: Double,
        placer: any ResumableItemPlacer,
        after itemCount: Int,
        appended: AppendedItems? = nil,
        into consumer: inout Consumer
    ) throws -> (geometry: SectionGeometry, placer: any ItemPlacer) {
        try layoutSection(
            section, index: index, axis: axis, crossExtent: crossExtent, start: start,
            resuming: (placer, itemCount), appended: appended, into: &consumer
        )
    }

    private func layoutSection<Consumer: LayoutConsumer>(
        _ section: Section,
        index: Int,
        axis: Axis,
        crossExtent: Double,
        start: Double,
        resuming: (placer: any ResumableItemPlacer, itemCount: Int)?,
        appended: AppendedItems? = nil,
        into consumer: inout Consumer
    ) throws -> (geometry: SectionGeometry, placer: any ItemPlacer) {
        try Self.validate(section, path: JSONPath.root.appending("sections").appending(index))
        let placement = try SectionPlacement(section, index: index, axis: axis, crossExtent: crossExtent)
        let context = placement.context
        let headerLength = section.header?.size ?? 0
        let origin = placement.origin(start: start, headerLength: headerLength)
        try Self.validateUnreachedCycleEntries(of: section, in: context)
        try consumer.beginSection(index, origin: origin)
        var placer: any ItemPlacer = try resuming?.placer ?? section.layout.makePlacer(in: context)
        let firstItem = resuming?.itemCount ?? 0
        var sink = FrameSink()
        // A resumed placer writes its open items again, then the new ones.
        let firstWritten = resuming.map { $0.placer.firstWrittenItem(after: $0.itemCount) } ?? 0
        var tracker = CellTracker(section: index, kind: section.layout.kind, firstItem: firstWritten)
        var itemCount = firstItem
        let chunkSize = self.chunkSize
        // A kind may write many frames at once (a long flow line, a kind
        // that waits for its last item), so they are handed on in slices.
        func deliver(_ written: [PlacedFrame]) throws {
            let frames = placement.feedFrames(written)
            try tracker.record(frames)
            guard frames.count > chunkSize else { return try consumer.consumeCells(frames, section: index, origin: origin) }
            for start in stride(from: 0, to: frames.count, by: chunkSize) {
                let slice = Array(frames[start..<min(start + chunkSize, frames.count)])
                try consumer.consumeCells(slice, section: index, origin: origin)
            }
        }
        let checkpointInterval = consumer.checkpointInterval.map { max(1, $0) } ?? Int.max
        // A closure literal, not a local function passed by name: one the
        // compiler cannot see called in place boxes the state it changes and
        // checks each access at run time (laying out took twice as long).
        try section.items.forEach(section: index, from: firstItem, appended: appended) { item, itemIndex, location in
            try placer.place(item, index: itemIndex, location: location, into: &sink)
            itemCount = itemIndex + 1
            if sink.frames.count >= chunkSize { try sink.drain(deliver) }
            if itemCount % checkpointInterval == 0 { try consumer.checkpoint(section: index, itemCount: itemCount, placer: placer) }
        }
        let kindExtent = placer.finish(into: &sink)
        try sink.drain(deliver)
        try tracker.check(itemCount: itemCount, itemsExtent: kindExtent)
        let sides = placement.sides
        let geometry = SectionGeometry(
            index: index,
            start: start,
            header: section.header,
            footer: section.footer,
            background: section.background,
            scrollStartInset: sides.scrollStart,
            scrollEndInset: sides.scrollEnd,
            crossStartInset: sides.crossStart,
            itemCount: itemCount,
            itemsExtent: placement.itemsExtent(kindExtent: kindExtent, itemCount: itemCount),
            cellSpan: tracker.span,
            orthogonalContentLength: placement.contentLength(kindExtent: kindExtent, itemCount: itemCount)
        )
        return (geometry, placer)
    }

    static func validate(_ section: Section, path: JSONPath) throws {
        let insets = path.appending("insets")
        try LayoutParameters.check(section.insets.top, rule: .nonNegative, at: insets.appending("top"))
        try LayoutParameters.check(section.insets.left, rule: .nonNegative, at: insets.appending("left"))
        try LayoutParameters.check(section.insets.bottom, rule: .nonNegative, at: insets.appending("bottom"))
        try LayoutParameters.check(section.insets.right, rule: .nonNegative, at: insets.appending("right"))
        if let header = section.header {
            try LayoutParameters.check(header.size, rule: .nonNegative, at: path.appending("header").appending("size"))
        }
        if let footer = section.footer {
            try LayoutParameters.check(footer.size, rule: .nonNegative, at: path.appending("footer").appending("size"))
        }
        if let orthogonal = section.orthogonal {
            try LayoutParameters.check(orthogonal.length, rule: .positive, at: path.appending("orthogonal").appending("length"))
        }
        try validate(section.items, path: path.appending("items"))
    }

    private static func validate(_ items: ItemSource, path: JSONPath) throws {
        switch items {
        case .cycle(let count, _) where count < 0:
            throw path.appending("count").error("must be at least 0, got \(count)")
        case .segments(let parts):
            for (index, part) in parts.enumerated() { try validate(part, path: path.appending("segments").appending(index)) }
        case .overridden(let base, _):
            try validate(base, path: path.appending("base"))
        default:
            break
        }
    }
}
