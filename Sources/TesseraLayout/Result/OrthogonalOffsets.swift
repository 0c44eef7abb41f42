/// How far a query scrolls each orthogonal section (carousel) across the
/// feed: the contract's offsets (CLI `--offset SECTION=X`, HTTP
/// `offset=SECTION:X`). A carousel's cells are matched against the query's
/// rect moved by +offset across the feed and reported moved by −offset;
/// sections that scroll with the feed, and the headers, footers and
/// backgrounds of carousels, ignore offsets. Every offset is 0 unless given.
///
/// ```swift
/// let offsets = OrthogonalOffsets([2: 240])
/// let visible = layout.visibleElements(viewport: viewport, offsets: offsets)
/// ```
public struct OrthogonalOffsets: Sendable, Hashable {
    private var offsets: [Int: Double]

    /// The offset of each section given, in points (finite; the others 0).
    public init(_ offsets: [Int: Double] = [:]) {
        self.offsets = offsets
    }

    /// Every offset 0.
    public static let none = OrthogonalOffsets()

    /// The offset of section `section` (0 unless given).
    @inlinable
    public subscript(section: Int) -> Double {
        offset(of: section)
    }

    @usableFromInline
    func offset(of section: Int) -> Double {
        offsets[section] ?? 0
    }

    /// The sections given an offset, with their offsets, by section.
    public var entries: [(section: Int, offset: Double)] {
        offsets.sorted { $0.key < $1.key }.map { (section: $0.key, offset: $0.value) }
    }

    /// No offset given.
    public var isEmpty: Bool { offsets.isEmpty }

    /// The most offsets one query may give (a request cannot make a query
    /// allocate more).
    package static let maximumCount = 10_000

    /// What is wrong with a list of offsets, as a phrase for people.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Offsets written `SECTION<separator>X` (`2=240` on the command line,
    /// `2:240` in a URL): a section number (an integer, at least 0) and a
    /// finite number, each section at most once, at most ``maximumCount``
    /// of them (counted before anything is allocated).
    package init(parsing texts: [Substring], separator: Character) throws(Failure) {
        guard texts.count <= Self.maximumCount else {
            throw Failure(description: "at most \(Self.maximumCount) offsets, got \(texts.count)")
        }
        var offsets: [Int: Double] = [:]
        offsets.reserveCapacity(texts.count)
        for text in texts {
            guard let split = text.firstIndex(of: separator) else {
                throw Failure(description: "\(String(text).quotedForMessage) is not SECTION\(separator)X")
            }
            let sectionText = text[..<split]
            guard !sectionText.isEmpty, sectionText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let section = Int(sectionText)
            else {
                throw Failure(description: "\(String(sectionText).quotedForMessage) is not a section number (an integer, at least 0)")
            }
            let offsetText = text[text.index(after: split)...]
            guard let offset = DecimalText.jsonNumber(offsetText), offset.isFinite else {
                throw Failure(description: "the offset of section \(section), \(String(offsetText).quotedForMessage), is not a finite number")
            }
            guard offsets.updateValue(offset, forKey: section) == nil else {
                throw Failure(description: "section \(section) has more than one offset")
            }
        }
        self.offsets = offsets
    }
}

/// An orthogonal section's content length, as an answer that holds any
/// of its elements carries it (the contract's top-level `"orthogonal"`):
/// the extent of its items across the feed, insets.left and insets.right
/// included.
public struct OrthogonalContent: Sendable, Hashable {
    /// The section's index.
    public var section: Int
    /// The extent of its items across the feed ("W" in the contract).
    public var contentLength: Double

    /// The content length `contentLength` of section `section`.
    public init(section: Int, contentLength: Double) {
        self.section = section
        self.contentLength = contentLength
    }

    /// One entry per orthogonal section that holds any of `elements`, by
    /// section; `contentLength(s)` is section s's content length, nil when
    /// it scrolls with the feed. Answers list elements section by section,
    /// so a section is looked up once per run of its elements.
    package static func of(_ elements: some Sequence<LayoutElement>, contentLength: (Int) throws -> Double?) rethrows -> [OrthogonalContent] {
        var found: [OrthogonalContent] = []
        var last: Int?
        for element in elements where element.section != last {
            last = element.section
            guard !found.contains(where: { $0.section == element.section }),
                  let length = try contentLength(element.section) else { continue }
            found.append(OrthogonalContent(section: element.section, contentLength: length))
        }
        return found.sorted { $0.section < $1.section }
    }
}
