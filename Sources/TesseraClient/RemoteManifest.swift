import Foundation
import TesseraLayout

/// A layout's tile manifest as a ``TileClient`` read it
/// (`GET …/layouts/{extent}/tiles`, or the same file of an export): the
/// revision its tiles belong to and how the layout is cut into them.
public struct RemoteManifest: Sendable, Hashable {
    /// The manifest's URL.
    public var url: URL
    /// The tiles' revision (16 hexadecimal digits from Tessera): it names
    /// the frames, and changes whenever they do.
    public var revision: String
    /// The tiles' length along the scroll axis: tile i holds the band
    /// [i·T, (i+1)·T).
    public var tileLength: Double
    /// At least 1: tiles 0 to `tileCount − 1`.
    public var tileCount: Int
    /// The scroll axis.
    public var axis: Axis
    /// The layout's container width (vertical feeds) or height (horizontal ones).
    public var extent: Double
    /// The layout's content size.
    public var contentSize: Size
    /// The tiles' URL template, with `{index}`, relative to ``url``.
    public var template: String
    /// The URL template of the same tiles as columns (the manifest's
    /// `columnTiles`, relative to ``url``); nil when the manifest names none.
    public var columnTemplate: String?
    /// The manifest's entity tag, revalidated with `If-None-Match`.
    public var etag: String?

    /// The URL of tile `index`: the template's `{index}` replaced,
    /// resolved against the manifest's URL.
    public func tileURL(_ index: Int) -> URL? {
        Self.url(template, index: index, relativeTo: url)
    }

    /// The URL of tile `index` as columns, nil when the manifest names no
    /// column tiles.
    public func columnTileURL(_ index: Int) -> URL? {
        columnTemplate.flatMap { Self.url($0, index: index, relativeTo: url) }
    }

    private static func url(_ template: String, index: Int, relativeTo base: URL) -> URL? {
        URL(string: template.replacingOccurrences(of: "{index}", with: String(index)), relativeTo: base)?.absoluteURL
    }

    /// At most this many tiles (the server's own bound).
    static let maximumTileCount = 1 << 30

    /// The manifest in `body`, checked: a revision that can be a path
    /// segment, a positive tile length, a tile count that cuts the content
    /// into tiles of that length, a template with one `{index}` that
    /// resolves to an http(s) or file URL (and the same of `columnTiles`
    /// when there is one).
    init(url: URL, body: [UInt8], etag: String?) throws(TileClientError) {
        let json = try BodyJSON.parse(body, url: url)
        self = try JSONMembers.reading(url, "not a tile manifest") { () throws(JSONMembers.Failure) in try Self(json: json, url: url, etag: etag) }
    }

    private init(json: JSONValue, url: URL, etag: String?) throws(JSONMembers.Failure) {
        let members = try JSONMembers(json, at: JSONPath.root)
        self.url = url
        self.etag = etag
        revision = try members.string("revision", maximumLength: 128)
        guard !revision.isEmpty, revision.utf8.allSatisfy(Self.isRevisionByte) else {
            throw members.failure("revision", "expected letters, digits, '-' or '_' (a path segment)")
        }
        tileLength = try members.number("tileLength")
        guard tileLength > 0 else { throw members.failure("tileLength", "must be above 0") }
        tileCount = try members.integer("tileCount", in: 1...Self.maximumTileCount)
        axis = try members.axis("axis")
        extent = try members.number("extent")
        guard extent > 0 else { throw members.failure("extent", "must be above 0") }
        contentSize = try members.size("contentSize")
        let length = axis == .vertical ? contentSize.height : contentSize.width
        let expected = max(1, (length / tileLength).rounded(.up))
        guard Double(tileCount) == expected else {
            throw members.failure("tileCount", "\(tileCount) tiles of \(JSONWriter.format(tileLength)) do not cut a content length of \(JSONWriter.format(length))")
        }
        template = try Self.template(members, "tiles", base: url)
        columnTemplate = members.object["columnTiles"] == nil ? nil : try Self.template(members, "columnTiles", base: url)
    }

    /// The template of `key`: one `{index}`, making an http(s) or file URL.
    private static func template(_ members: JSONMembers, _ key: String, base: URL) throws(JSONMembers.Failure) -> String {
        let template = try members.string(key)
        guard template.components(separatedBy: "{index}").count == 2 else { throw members.failure(key, "expected one {index} in the template") }
        guard let first = url(template, index: 0, relativeTo: base), ["http", "https", "file"].contains(first.scheme?.lowercased() ?? "") else {
            throw members.failure(key, "the template does not make an http(s) or file URL")
        }
        return template
    }

    private static func isRevisionByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "-"), UInt8(ascii: "_"): true
        default: false
        }
    }
}
