/// `pattern`: a repeating pattern of blocks, like SquareMosaicLayout.
///
/// Parameters: `blocks` (required, not empty), `spacing` `{"before",
/// "between", "after"}` all 0. Blocks stack along the scroll axis:
/// spacing.before, a block, spacing.between, a block, …, spacing.after
/// (before and after only when the section has items). If some block is
/// `repeated`, the blocks before the first repeated one are used once and that
/// block repeats for the rest of the items; otherwise the whole pattern
/// repeats. The last block may be used in part, and a block is as long as the
/// largest end of the frames it used.
///
/// Blocks are ``PatternBlock`` values: ``Block`` reads the JSON form (frames in
/// units); Swift users may add blocks of their own.
///
/// Unlike SquareMosaicLayout, a block without frames is an error instead of
/// an endless loop.
public struct PatternLayout: SectionLayout, Hashable {
    /// The kind's name in specs.
    public static let kind = "pattern"

    /// Space around and between blocks along the scroll axis.
    public struct Spacing: Sendable, Hashable, Codable {
        /// Before the first block.
        public var before: Double
        /// Between adjacent blocks.
        public var between: Double
        /// After the last block.
        public var after: Double

        /// Spacing around and between blocks, 0 by default.
        public init(before: Double = 0, between: Double = 0, after: Double = 0) {
            self.before = before
            self.between = between
            self.after = after
        }

        /// The fields of the `spacing` object, in order; absent ones are 0.
        static let parameterFields: [ParameterField<Self>] = [
            .number("before", \.before),
            .number("between", \.between),
            .number("after", \.after),
        ]
    }

    /// The blocks, in order.
    public var blocks: [any PatternBlock]
    /// Space around and between blocks along the scroll axis.
    public var spacing: Spacing

    /// A layout with the given parameters, checked when a section is laid out.
    public init(blocks: [any PatternBlock], spacing: Spacing = Spacing()) {
        self.blocks = blocks
        self.spacing = spacing
    }

    /// Reads the layout object of a spec, with the defaults above.
    /// - Throws: ``SpecError`` naming the parameter and the rule it breaks.
    public init(parameters: LayoutParameters) throws {
        let path = parameters.path
        guard let blocksValue = parameters.object["blocks"], blocksValue != .null else {
            throw path.appending("blocks").error("is required")
        }
        guard case .array(let blockValues) = blocksValue else {
            throw path.appending("blocks").error("must be an array of blocks, got \(blocksValue.typeName)")
        }
        if blockValues.isEmpty { throw path.appending("blocks").error("must not be empty") }
        let blocks = try blockValues.enumerated().map { index, value in
            try Block(json: value, path: path.appending("blocks").appending(index))
        }
        var spacing = Spacing()
        if let spacingValue = parameters.object["spacing"], spacingValue != .null {
            guard case .object(let object) = spacingValue else {
                throw path.appending("spacing").error("must be an object {\"before\", \"between\", \"after\"}, got \(spacingValue.typeName)")
            }
            let reader = LayoutParameters(object: object, path: path.appending("spacing"))
            try reader.refuseUnknownKeys(Spacing.parameterFields.map(\.key))
            try Spacing.parameterFields.read(reader, into: &spacing)
        }
        self.init(blocks: blocks, spacing: spacing)
    }

    public var kind: String { Self.kind }

    public var parameters: JSONObject {
        JSONObject([
            "blocks": .array(blocks.map(\.jsonValue)),
            "spacing": .object(Spacing.parameterFields.json(of: spacing)),
        ])
    }

    // Blocks may be any PatternBlock, so layouts compare by what they store.
    public static func == (lhs: PatternLayout, rhs: PatternLayout) -> Bool {
        lhs.parameters == rhs.parameters
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
    }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        if blocks.isEmpty { throw path.appending("blocks").error("must not be empty") }
        let spacingPath = path.appending("spacing")
        try LayoutParameters.check(spacing.before, rule: .nonNegative, at: spacingPath.appending("before"))
        try LayoutParameters.check(spacing.between, rule: .nonNegative, at: spacingPath.appending("between"))
        try LayoutParameters.check(spacing.after, rule: .nonNegative, at: spacingPath.appending("after"))
        // Blocks are resolved to points once, so the placer is plain data.
        var frames: [LocalFrame] = []
        var blockStarts: [Int] = [0]
        for (index, block) in blocks.enumerated() {
            let blockPath = path.appending("blocks").appending(index)
            let blockFrames = try block.frames(in: context, path: blockPath)
            if blockFrames.isEmpty { throw blockPath.appending("frames").error("must not be empty: a block without frames can place no item") }
            for (frameIndex, frame) in blockFrames.enumerated() {
                let valid = [frame.cross, frame.scroll, frame.crossLength, frame.scrollLength].allSatisfy(\.isFinite)
                if !valid || frame.crossLength < 0 || frame.scrollLength < 0 {
                    throw blockPath.appending("frames").appending(frameIndex).error("must be finite with lengths of at least 0")
                }
            }
            frames += blockFrames
            blockStarts.append(frames.count)
        }
        return Placer(
            frames: frames,
            blockStarts: blockStarts,
            repeatedBlock: blocks.firstIndex(where: \.repeated),
            spacing: spacing
        )
    }

    struct Placer: ResumableItemPlacer {
        /// Every block's frames in points, relative to the block's top.
        let frames: [LocalFrame]
        /// Block b's frames are frames[blockStarts[b] ..< blockStarts[b + 1]].
        let blockStarts: [Int]
        let repeatedBlock: Int?
        let spacing: Spacing
        /// The block in use, and the index in `frames` of its next frame;
        /// nil before the first item.
        var block: Int?
        var nextFrame = 0
        var blockTop = 0.0
        /// The largest end of the frames used in the current block.
        var blockExtent = 0.0

        var openItems: Range<Int> { 0..<0 }

        init(frames: [LocalFrame], blockStarts: [Int], repeatedBlock: Int?, spacing: Spacing) {
            self.frames = frames
            self.blockStarts = blockStarts
            self.repeatedBlock = repeatedBlock
            self.spacing = spacing
        }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            if let current = block {
                if nextFrame == blockStarts[current + 1] {
                    let next: Int = if let repeatedBlock {
                        min(current + 1, repeatedBlock)
                    } else {
                        (current + 1) % (blockStarts.count - 1)
                    }
                    blockTop += blockExtent + spacing.between
                    blockExtent = 0
                    block = next
                    nextFrame = blockStarts[next]
                }
            } else {
                block = 0
                nextFrame = 0
                blockTop = spacing.before
            }
            let frame = frames[nextFrame]
            nextFrame += 1
            blockExtent = max(blockExtent, frame.scrollEnd)
            sink.emit(item: index, frame: frame.offsetBy(cross: 0, scroll: blockTop))
        }

        func finish(into sink: inout FrameSink) -> Double {
            block == nil ? 0 : blockTop + blockExtent + spacing.after
        }
    }
}
