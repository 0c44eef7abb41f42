/// One block of a ``PatternLayout``: a fixed arrangement of frames that the
/// pattern stacks along the scroll axis. Item k of a block gets its k-th frame.
///
/// ``PatternLayout/Block`` (frames in grid units, as written in JSON) is one
/// implementation; conform your own type to compute frames in Swift, like
/// SquareMosaicLayout's custom block objects.
public protocol PatternBlock: Sendable {
    /// Whether the pattern repeats this block: the first repeated block of a
    /// pattern repeats for all remaining items, and later blocks are unused.
    var repeated: Bool { get }

    /// The block's frames, in item order, for the section described by
    /// `context`: `cross` from the items' cross start (0 … available) and
    /// `scroll` from the block's top. Lengths must not be negative, and a
    /// block needs at least one frame.
    ///
    /// - Parameters:
    ///   - context: the section being laid out.
    ///   - path: the block's JSON path, to name it in errors.
    func frames(in context: SectionContext, path: JSONPath) throws -> [LocalFrame]

    /// The block as it is stored in a spec and compared to tell whether a
    /// section changed. A block that only exists in Swift cannot be read back
    /// from JSON, but its value must still change whenever its frames do.
    var jsonValue: JSONValue { get }
}

extension PatternLayout {
    /// A frame in grid units, written as for a vertical spec: `x` and `width`
    /// across the scroll axis, `y` and `height` along it.
    public struct UnitFrame: Sendable, Hashable, Codable {
        /// The start across the scroll axis, in units.
        public var x: Double
        /// The start along the scroll axis, in units.
        public var y: Double
        /// The length across the scroll axis, in units.
        public var width: Double
        /// The length along the scroll axis, in units.
        public var height: Double

        /// A frame in units.
        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// A block whose frames are in units, as in JSON: the block is `units`
    /// units across the available extent with `gutter` points between
    /// adjacent units, and a unit is `unitAspect` times as long along the
    /// scroll axis as it is across.
    ///
    /// Unit positions and sizes need not be integers (a half-unit frame is
    /// fine) and may pass the block's `units` (the frame then passes the
    /// available extent, like a flow item wider than its line): x and y must
    /// not be negative, width and height must be above 0.
    public struct Block: PatternBlock, Hashable, Codable {
        /// Units across the available extent.
        public var units: Int
        /// A unit's length along the scroll axis per its length across (1 by default).
        public var unitAspect: Double
        /// Points between adjacent units (0 by default).
        public var gutter: Double
        /// The frames, in item order.
        public var frames: [UnitFrame]
        public var repeated: Bool

        /// A block of `frames` in units.
        public init(units: Int, unitAspect: Double = 1, gutter: Double = 0, frames: [UnitFrame], repeated: Bool = false) {
            self.units = units
            self.unitAspect = unitAspect
            self.gutter = gutter
            self.frames = frames
            self.repeated = repeated
        }

        /// The fields of a block object, in order; absent ones keep the defaults above.
        static let parameterFields: [ParameterField<Self>] = [
            .integer("units", \.units, required: true),
            .number("unitAspect", \.unitAspect, rule: .positive),
            .number("gutter", \.gutter),
            .custom("frames", \.frames, required: true, read: frames(in:), write: { frames in
                .array(frames.map { .array([.number($0.x), .number($0.y), .number($0.width), .number($0.height)]) })
            }),
            .bool("repeated", \.repeated),
        ]

        /// Reads a block object of a pattern's `blocks`.
        public init(json: JSONValue, path: JSONPath) throws {
            guard case .object(let object) = json else { throw path.error("a block must be an object, got \(json.typeName)") }
            self.init(units: 0, frames: [])  // both required: read below, or an error
            let reader = LayoutParameters(object: object, path: path)
            try reader.refuseUnknownKeys(Self.parameterFields.map(\.key))
            try Self.parameterFields.read(reader, into: &self)
            try validate(at: path)
        }

        /// The `frames` of a block object, or nil when absent or null.
        private static func frames(in fields: LayoutParameters) throws -> [UnitFrame]? {
            let path = fields.path
            guard let framesValue = fields.object["frames"], framesValue != .null else { return nil }
            guard case .array(let frameValues) = framesValue else {
                throw path.appending("frames").error("must be an array of [x, y, width, height] arrays, got \(framesValue.typeName)")
            }
            return try frameValues.enumerated().map { index, value in
                guard case .array(let numbers) = value, numbers.count == 4 else {
                    throw path.appending("frames").appending(index).error("must be an array of four numbers [x, y, width, height]")
                }
                var parts: [Double] = []
                for number in numbers {
                    guard case .number(let part) = number else {
                        throw path.appending("frames").appending(index).error("must be an array of four numbers [x, y, width, height]")
                    }
                    parts.append(part)
                }
                return UnitFrame(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
            }
        }

        public var jsonValue: JSONValue { .object(Self.parameterFields.json(of: self)) }

        /// Checks the rules that do not depend on the available extent.
        func validate(at path: JSONPath) throws {
            if units < 1 { throw path.appending("units").error("must be at least 1, got \(units)") }
            try LayoutParameters.check(unitAspect, rule: .positive, at: path.appending("unitAspect"))
            try LayoutParameters.check(gutter, rule: .nonNegative, at: path.appending("gutter"))
            if frames.isEmpty { throw path.appending("frames").error("must not be empty: a block without frames can place no item") }
            for (index, frame) in frames.enumerated() {
                let framePath = path.appending("frames").appending(index)
                try LayoutParameters.check(frame.x, rule: .nonNegative, at: framePath.appending(0))
                try LayoutParameters.check(frame.y, rule: .nonNegative, at: framePath.appending(1))
                try LayoutParameters.check(frame.width, rule: .positive, at: framePath.appending(2))
                try LayoutParameters.check(frame.height, rule: .positive, at: framePath.appending(3))
            }
        }

        public func frames(in context: SectionContext, path: JSONPath) throws -> [LocalFrame] {
            try validate(at: path)
            let unitWidth = try EqualParts.length(
                count: units, spacing: gutter, available: context.available, parts: "units", gaps: "gutters",
                path: path.appending("gutter")
            )
            let unitLength = unitWidth * unitAspect
            return try frames.enumerated().map { index, unit in
                let frame = LocalFrame(
                    cross: unit.x * (unitWidth + gutter),
                    scroll: unit.y * (unitLength + gutter),
                    crossLength: unit.width * unitWidth + (unit.width - 1) * gutter,
                    scrollLength: unit.height * unitLength + (unit.height - 1) * gutter
                )
                // Only a frame less than one unit wide can lose more to the
                // gutter than it has.
                if frame.crossLength < 0 || frame.scrollLength < 0 {
                    throw path.appending("frames").appending(index).error(
                        "is smaller than the gutter it spans: units are \(JSONWriter.format(unitWidth)) × \(JSONWriter.format(unitLength)) points at this width"
                    )
                }
                return frame
            }
        }
    }
}
