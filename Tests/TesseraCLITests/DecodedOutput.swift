import Foundation
import TesseraLayout
import TesseraStore

/// The CLI's JSON read back with Foundation's decoder, independently of the
/// library's own JSON writer and parser, so that numbers are compared with
/// the library's doubles rather than with the formatter's own text.
enum DecodedOutput {
    struct Element: Decodable, Equatable, CustomStringConvertible {
        var kind: String
        var section: Int
        var item: Int?
        var frame: [Double]
        var zIndex: Int

        var description: String { "\(kind) \(section)/\(item.map(String.init) ?? "-") \(frame) z\(zIndex)" }
    }

    /// `--format json` of layout, query and item; ndjson's first line has the same fields but elements.
    struct Layout: Decodable {
        var axis: String
        var extent: Double
        var contentSize: [Double]
        /// The content length of each orthogonal section the answer holds elements of.
        var orthogonal: [Orthogonal]?
        var elements: [Element]?
    }

    /// An entry of `"orthogonal"`.
    struct Orthogonal: Decodable, Equatable {
        var section: Int
        var contentLength: Double
    }

    /// `list --format json`.
    struct Listing: Decodable {
        struct Spec: Decodable {
            var name: String
            var axis: String
            var sections: Int
            var layouts: [StoredLayout]
        }
        var specs: [Spec]
    }

    /// A layout in `list`'s JSON; in its ndjson the spec's fields come too.
    struct StoredLayout: Decodable, Equatable {
        var name: String?
        var axis: String?
        var sections: Int?
        var extent: Double?
        var state: String
        var elements: Int?
        var contentSize: [Double]?
        var frameBytes: Int?
        var computeSeconds: Double?
    }

    static func decode<T: Decodable>(_ type: T.Type, from text: some StringProtocol) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// ndjson: the layout's fields, then its elements.
    static func ndjson(_ text: String) throws -> (layout: Layout, elements: [Element]) {
        let lines = text.split(separator: "\n")
        guard let first = lines.first else { throw CocoaError(.coderReadCorrupt) }
        return (try decode(Layout.self, from: first), try lines.dropFirst().map { try decode(Element.self, from: $0) })
    }
}

extension DecodedOutput.Element {
    /// What the CLI must print for a library element: the same doubles.
    init(_ element: LayoutElement) {
        let frame = element.frame
        self.init(kind: element.kind.rawValue, section: element.section, item: element.item,
                  frame: [frame.x, frame.y, frame.width, frame.height], zIndex: element.zIndex)
    }
}

extension Size {
    var pair: [Double] { [width, height] }
}
