import TesseraLayout

/// How the layout cache's routes behave: which layouts a read may compute,
/// who may write, and how large a request body and an answer may be. The defaults are
/// those of `tessera-server` (<doc:HTTPAPI>).
public struct TesseraServiceConfiguration: Sendable {
    /// Who may call the write routes (`PUT`, `POST`, `DELETE`).
    public enum WriteAccess: Sendable, Equatable {
        /// Every write answers 403.
        case forbidden
        /// A write needs `Authorization: Bearer TOKEN`, else it answers 401.
        case bearerToken(String)
    }

    /// The extents a read may compute a missing layout at: whole points
    /// within this range (`--compute-extents`, 200–3000 by default).
    public var computeExtents: ClosedRange<Double>
    /// The most extents a read may leave stored for one spec
    /// (`--max-extents`, 16 by default).
    public var maximumExtents: Int
    /// Whether a read computes a layout that is missing or stale; when
    /// false such a read answers 404 (`--no-compute`).
    public var computesMissingLayouts: Bool
    /// Who may write.
    public var writeAccess: WriteAccess
    /// The largest request body, in bytes; a larger one answers 413
    /// (`--max-body-size`, 64 MiB by default).
    public var maximumBodySize: Int
    /// The most elements one answer holds; a rect or viewport with more
    /// answers 400 naming the limit, so that the client splits it
    /// (`--max-answer-elements`, 50,000 by default).
    public var maximumAnswerElements: Int
    /// The most elements that large answers being sent hold together; a
    /// large answer past it answers 503 with `Retry-After`
    /// (`--max-elements-in-flight`, 2,000,000 by default: about 150 MB).
    public var maximumElementsInFlight: Int
    /// Room given back when deleting a spec finds the disk full, so that the
    /// deletion still happens (`--disk-reserve`); nil: a full disk answers 507.
    public var diskReserve: DiskReserve?
    /// The bytes of tile bodies (plain and gzip-compressed) kept to answer
    /// the same tile again without cutting and compressing it: a kept body
    /// answers only while its revision is the layout's current one
    /// (`--tile-cache-bytes`, 64 MiB by default; 0 keeps none).
    public var tileCacheBytes: Int
    /// Which web pages of other origins may read the answers (CORS,
    /// `--cors-origin`; none by default): every answer of every route then
    /// carries the CORS headers, and preflights are answered without a token.
    public var crossOriginAccess: CrossOriginAccess

    public init(
        computeExtents: ClosedRange<Double> = 200...3000,
        maximumExtents: Int = 16,
        computesMissingLayouts: Bool = true,
        writeAccess: WriteAccess = .forbidden,
        maximumBodySize: Int = 64 << 20,
        maximumAnswerElements: Int = 50_000,
        maximumElementsInFlight: Int = 2_000_000,
        diskReserve: DiskReserve? = nil,
        tileCacheBytes: Int = 64 << 20,
        crossOriginAccess: CrossOriginAccess = .off
    ) {
        self.computeExtents = computeExtents
        self.maximumExtents = maximumExtents
        self.computesMissingLayouts = computesMissingLayouts
        self.writeAccess = writeAccess
        self.maximumBodySize = maximumBodySize
        self.maximumAnswerElements = maximumAnswerElements
        self.maximumElementsInFlight = maximumElementsInFlight
        self.diskReserve = diskReserve
        self.tileCacheBytes = tileCacheBytes
        self.crossOriginAccess = crossOriginAccess
    }
}
