/// A layout spec, format 1: the scroll axis and the sections. The cross
/// extent is not part of a spec; it is given when a layout is computed.
public struct Spec: Sendable {
    /// The only format this version reads.
    public static let format = 1

    /// The key a store files this spec under.
    public var name: String?
    /// The scroll axis.
    public var axis: Axis
    /// Space between two consecutive non-empty sections.
    public var sectionSpacing: Double
    /// The sections, in order.
    public var sections: [Section]

    /// A spec built in Swift; the engine validates it when it lays it out.
    public init(name: String? = nil, axis: Axis = .vertical, sectionSpacing: Double = 0, sections: [Section]) {
        self.name = name
        self.axis = axis
        self.sectionSpacing = sectionSpacing
        self.sections = sections
    }
}
