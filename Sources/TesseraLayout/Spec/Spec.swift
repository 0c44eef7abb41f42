/// A layout spec, format 1: the scroll axis and the sections. The cross
/// extent is not part of a spec; it is given when a layout is computed.
public struct Spec: Sendable {
    /// The only format this version reads.
    public static let format = 1

    /// The most items a spec may hold, all sections together: a billion
    /// (32 GB of exact frames in a store). A larger `count` is an error at its
    /// JSON path; items files are counted as they are read.
    public static let maximumItemCount = 1_000_000_000

    /// The longest line an items file may have: 1 MiB.
    public static let maximumItemLineBytes = 1 << 20

    /// The largest spec file, and the longest line of a file of specs: 64 MiB
    /// (the HTTP service's default largest request body). A larger file is
    /// refused before it is read.
    public static let maximumFileBytes = 64 << 20

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
