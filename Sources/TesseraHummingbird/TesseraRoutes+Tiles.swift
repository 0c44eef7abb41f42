import Hummingbird
import Locking
import TesseraGzip
import TesseraLayout
import TesseraStore
import TesseraTiles
import TesseraStoreFormat

/// The tile routes (<doc:HTTPAPI#Tiles>): a manifest a CDN revalidates, and tiles
/// under revisioned URLs it keeps for a year. Both take `direction=rtl`
/// and `offset=SECTION:X`; the manifest passes them on in its URL template.
extension TesseraRoutes {
    /// `GET …/layouts/{extent}/tiles`: `Cache-Control: no-cache` and an ETag.
    @Sendable func tileManifest(_ request: Request, _ context: Context) async throws -> Response {
        let (name, extent) = try layoutValues(context)
        let variant = try TileVariant(request)
        let result = try await store.tileManifest(name: name, crossExtent: extent, compute: computePolicy(name: name, extent: extent))
        let manifest = try found(result, name: name, extent: extent)
        return TileResponses.response(
            TileJSON.manifest(manifest, query: variant.query), gzip: TileResponses.acceptsGzip(request.headers[.acceptEncoding]),
            tag: manifest.revision + TileJSON.manifestTagSuffix + variant.tagSuffix, cacheControl: "no-cache", request: request)
    }

    /// `GET …/layouts/{extent}/revisions/{revision}/tiles/{index}`: immutable,
    /// with an ETag; 404 once the revision is not current, or past the last tile.
    @Sendable func tile(_ request: Request, _ context: Context) async throws -> Response {
        try await tile(request, context, columns: false)
    }

    /// `GET …/layouts/{extent}/revisions/{revision}/columns/{index}`: the
    /// same tile as columns (`TileJSON.columnTile`), as the manifest's
    /// `columnTiles` names it; cached and refused as a tile.
    @Sendable func columnTile(_ request: Request, _ context: Context) async throws -> Response {
        try await tile(request, context, columns: true)
    }

    private func tile(_ request: Request, _ context: Context, columns: Bool) async throws -> Response {
        let (name, extent) = try layoutValues(context)
        let revision = context.parameters.get("revision") ?? ""
        let index = try RequestValues.index(context.parameters.get("index"), of: "tile")
        let variant = try TileVariant(request)
        let tag = "\(revision)-\(columns ? "c" : "")\(index)" + variant.tagSuffix
        let cacheControl = "public, max-age=31536000, immutable"
        // A body kept under its tag is the tile's while its revision is
        // current: one look at the manifest (from memory when warm) instead
        // of cutting, writing and compressing the tile again.
        let gzip = TileResponses.acceptsGzip(request.headers[.acceptEncoding])
        if let kept = gzip ? tileBodies.gzip(tag) : tileBodies.plain(tag),
           case .found(let manifest, let computed) = try await store.tileManifest(name: name, crossExtent: extent, compute: computePolicy(name: name, extent: extent)),
           manifest.revision == revision, index < manifest.tileCount {
            if computed { metrics.layoutComputed() }
            metrics.tileAnswered(kept: true)
            return TileResponses.response(encoded: kept, gzip: gzip, tag: tag, cacheControl: cacheControl, request: request)
        }
        let result: TileResult<LayoutTile>
        do {
            result = try await store.tile(
                name: name, crossExtent: extent, revision: revision, index: index, direction: variant.direction, offsets: variant.offsets,
                maximumElements: configuration.maximumAnswerElements, compute: computePolicy(name: name, extent: extent))
        } catch let error as StoreError where error.code == .notFound {
            // The revision may come back (revisions derive from the frames):
            // a cache must not keep the 404.
            throw Problem(.notFound, error.message, headers: [.cacheControl: "no-store"])
        }
        let tile = try found(result, name: name, extent: extent)
        let body = columns ? TileJSON.columnTile(tile) : TileJSON.tile(tile)
        metrics.tileAnswered(kept: false)
        return TileResponses.response(body, gzip: gzip, tag: tag, cacheControl: cacheControl, request: request, bodies: tileBodies)
    }

    private func layoutValues(_ context: Context) throws(Problem) -> (name: String, extent: Double) {
        (try RequestValues.name(context.parameters.get("name")), try RequestValues.extent(context.parameters.get("extent")))
    }

    private func found<Value>(_ result: TileResult<Value>, name: String, extent: Double) throws -> Value {
        guard case .found(let value, let computed) = result else {
            throw Problem(.internalServerError, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(extent)) was neither answered nor refused")
        }
        if computed { metrics.layoutComputed() }
        return value
    }
}

/// A tile request's direction and carousel offsets, and how they show in
/// URL templates and entity tags.
struct TileVariant {
    let direction: LayoutDirection
    let offsets: OrthogonalOffsets
    /// `direction=rtl&offset=2:240…`, canonical (offsets by section), or empty.
    let query: String
    /// Appended to a revision's tag: empty for the plain variant.
    let tagSuffix: String

    init(_ request: Request) throws(Problem) {
        direction = try RequestValues.direction(request)
        offsets = try RequestValues.offsets(request)
        query = TileJSON.query(direction: direction, offsets: offsets)
        tagSuffix = query.isEmpty ? "" : "-" + String(UInt64(bitPattern: Checksum.of(Array(query.utf8))), radix: 36)
    }
}

/// The answers of the tile routes: JSON with a strong ETag (a 304 for a
/// matching `If-None-Match`), gzip-compressed when the request accepts it.
enum TileResponses {
    /// `body`, gzip-compressed when `gzip` (the request accepts it, see
    /// ``acceptsGzip(_:)``: the caller decided once). `bodies` keeps the
    /// body as sent, by tag, in the encoding asked for (a gzip body is a
    /// seventh of the plain one), for bodies that never change under
    /// their tag (tiles); the caller looked there first.
    static func response(_ body: [UInt8], gzip: Bool, tag: String, cacheControl: String, request: Request, bodies: TileBodies? = nil) -> Response {
        guard gzip, let gzipped = Gzip.compress(body) else {
            // Plain as asked, or as it is when compression failed: the tag must not claim gzip.
            let buffer = ByteBuffer(bytes: body)
            bodies?.keep(plain: buffer, tag: tag)
            return response(encoded: buffer, gzip: false, tag: tag, cacheControl: cacheControl, request: request)
        }
        let buffer = ByteBuffer(bytes: gzipped)
        bodies?.keep(gzip: buffer, tag: tag)
        return response(encoded: buffer, gzip: true, tag: tag, cacheControl: cacheControl, request: request)
    }

    /// `body` as it goes on the wire (gzip-compressed when `gzip`), or a
    /// 304 when `If-None-Match` names its tag.
    static func response(encoded body: ByteBuffer, gzip: Bool, tag: String, cacheControl: String, request: Request) -> Response {
        // A strong tag names one representation: the compressed one its own.
        let etag = "\"" + tag + (gzip ? "-gzip" : "") + "\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: cacheControl, .vary: "Accept-Encoding"]
        if let condition = request.headers[.ifNoneMatch], JSONResponses.matches(condition, tag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        if gzip { headers[.contentEncoding] = "gzip" }
        // The kept buffer itself: its storage is shared, not copied.
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// Whether `Accept-Encoding` allows gzip (`gzip` or `x-gzip`, or `*`,
    /// with a q-value above 0); without the header, no.
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var star: Bool?
        for part in header.utf8.split(separator: UInt8(ascii: ",")) {
            let fields = part.split(separator: UInt8(ascii: ";")).map { field in
                String(decoding: field.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }, as: UTF8.self).lowercased()
            }
            guard let coding = fields.first else { continue }
            let allowed = !fields.dropFirst().contains { $0.hasPrefix("q=") && (Double($0.dropFirst(2)) ?? 1) <= 0 }
            if coding == "gzip" || coding == "x-gzip" { return allowed }
            if coding == "*" { star = allowed }
        }
        return star ?? false
    }
}

/// Tile bodies by entity tag, plain and gzip-compressed, within one byte
/// budget (least recently used first out). A tag names a revision, a tile,
/// its format and its variant, and a revision derives from the frames, so
/// a body kept under a tag is right for every layout whose current
/// revision is the tag's; the route checks that before it answers with one.
struct TileBodies: Sendable {
    private struct Kept {
        var index: [String: Int] = [:]
        var list = LRUList<(key: String, body: ByteBuffer)>()
    }

    private let budget: Int
    private let kept = Locked(Kept())

    init(budget: Int) {
        self.budget = budget
    }

    func plain(_ tag: String) -> ByteBuffer? { body(tag) }
    func gzip(_ tag: String) -> ByteBuffer? { body(tag + "-gzip") }
    func keep(plain body: ByteBuffer, tag: String) { keep(body, key: tag) }
    func keep(gzip body: ByteBuffer, tag: String) { keep(body, key: tag + "-gzip") }

    private func body(_ key: String) -> ByteBuffer? {
        kept.withLock { kept in
            guard let node = kept.index[key] else { return nil }
            kept.list.markUsed(node)
            return kept.list[node].body
        }
    }

    private func keep(_ body: ByteBuffer, key: String) {
        let bytes = body.readableBytes + key.utf8.count + 64
        guard bytes <= budget else { return }
        kept.withLock { kept in
            let node = kept.list.add((key, body), bytes: bytes)
            if let old = kept.index.updateValue(node, forKey: key) { kept.list.remove(old) }
            while kept.list.bytes > budget, let victim = kept.list.leastRecentlyUsed(besides: node) {
                kept.index[kept.list.remove(victim).key] = nil
            }
        }
    }
}
