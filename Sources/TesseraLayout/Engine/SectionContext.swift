/// What a layout kind knows of the section it lays out.
public struct SectionContext: Sendable {
    /// The spec's scroll axis.
    public var axis: Axis
    /// The section's index in the spec.
    public var section: Int
    /// The cross extent of the container.
    public var crossExtent: Double
    /// The cross extent minus the cross-axis insets ("avail" in the contract).
    public var available: Double
    /// The cross extent of the feed's container, where breakpoints resolve:
    /// `crossExtent` itself, except in a carousel, whose kind runs across
    /// its own length while its breakpoints follow the device.
    public var containerExtent: Double

    /// A context, for tests of a kind outside the engine; `containerExtent`
    /// defaults to `crossExtent`.
    public init(axis: Axis, section: Int, crossExtent: Double, available: Double, containerExtent: Double? = nil) {
        self.axis = axis
        self.section = section
        self.crossExtent = crossExtent
        self.available = available
        self.containerExtent = containerExtent ?? crossExtent
    }

    /// The path of the section's layout object, for errors.
    public var layoutPath: JSONPath {
        JSONPath.root.appending("sections").appending(section).appending("layout")
    }

    /// An on-screen aspect ratio (width / height) as cross per scroll length.
    @inlinable
    public func crossPerScroll(aspectRatio: Double) -> Double {
        axis.crossPerScroll(aspectRatio: aspectRatio)
    }
}
