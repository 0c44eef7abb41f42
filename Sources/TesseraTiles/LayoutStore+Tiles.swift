import Locking
import TesseraLayout
import TesseraStore

/// A layout's tile manifest (the HTTP API article, `GET …/layouts/{extent}/tiles`):
/// its current tile revision, how it is cut into tiles, and its size.
public struct TileManifest: Sendable, Hashable {
    /// The layout as stored (axis, extent, content size).
    public var layout: StoredLayout
    /// Derived from the layout's frames (16 hex digits): the same on every
    /// server of one store, and changed whenever the frames change.
    public var revision: String
    /// The tiles' length along the scroll axis (the band of tile i is
    /// [i·T, (i+1)·T)).
    public var tileLength: Double
    /// At least 1: tiles 0 to `tileCount − 1`.
    public var tileCount: Int

    package init(layout: StoredLayout, revision: String, tileLength: Double, tileCount: Int) {
        self.layout = layout
        self.revision = revision
        self.tileLength = tileLength
        self.tileCount = tileCount
    }
}

/// One tile of a layout: every stored element that intersects its band
/// along the scroll axis (whole cross extent, whole carousels), unpinned,
/// with what a client needs to pin headers and footers itself.
public struct LayoutTile: Sendable {
    /// The manifest of the revision the tile was cut from.
    public var manifest: TileManifest
    /// The tile's number, from 0: its band is [index·T, (index+1)·T).
    public var index: Int
    /// The direction of its frames (and of its band's coordinates).
    public var direction: LayoutDirection
    /// In the order of a rect query's answer.
    public var elements: [LayoutElement]
    /// The contract's `"orthogonal"` for ``elements``.
    public var orthogonal: [OrthogonalContent]
    /// Every section with cells and a pinned header or footer whose reach
    /// (where its header and footer can be, pinned or not) meets the band,
    /// by section: its header and footer even when they lie in another tile.
    public var pinning: [SectionPinning]
}

/// What a tile read found: the value, from the fresh layout, or the layout
/// missing or stale as the `ComputePolicy` left it.
public typealias TileResult<Value: Sendable> = LayoutRead<Value>

/// The cause of a `notFound` `StoreError` for a tile of a revision that is
/// not the layout's current one.
public struct StaleTileRevision: Error, Sendable, Hashable {
    /// The revision the request named.
    public var asked: String
    /// The layout's current revision (its manifest's).
    public var current: String
}

extension LayoutStore {
    /// The tile manifest of the layout of `name` at `crossExtent`, in one
    /// read (computing the layout first as `policy` says).
    ///
    /// ```swift
    /// guard case .found(let manifest, _) = try await store.tileManifest(name: "home", crossExtent: 390) else { return }
    /// let tile = try await store.tile(name: "home", crossExtent: 390, revision: manifest.revision, index: 0)
    /// ```
    ///
    /// - Throws: `StoreError` as `LayoutStore.query(_:name:crossExtent:direction:offsets:maximumElements:compute:)`.
    public func tileManifest(name: String, crossExtent: Double, compute policy: ComputePolicy = .always) async throws -> TileResult<TileManifest> {
        let name = try specName(name)
        return try await tiled(name: name, crossExtent: crossExtent, compute: policy) { whole in
            Tiled(whole).manifest
        }
    }

    /// Tile `index` of revision `revision` of the layout of `name` at
    /// `crossExtent`, in `direction` (the band in the answer's coordinates),
    /// carousels scrolled by `offsets`; all of it from one snapshot.
    ///
    /// - Throws: `StoreError` `notFound` when `revision` is not the
    ///   layout's current one (a ``StaleTileRevision`` cause that names
    ///   it), or `index` is not below the tile count; `tooLarge` for a tile
    ///   of more than `maximumElements` elements; as
    ///   `LayoutStore.query(_:name:crossExtent:direction:offsets:maximumElements:compute:)`.
    public func tile(
        name: String, crossExtent: Double, revision: String, index: Int, direction: LayoutDirection = .leftToRight,
        offsets: OrthogonalOffsets = .none, maximumElements: Int? = nil, compute policy: ComputePolicy = .always
    ) async throws -> TileResult<LayoutTile> {
        let name = try specName(name)
        return try await tiled(name: name, crossExtent: crossExtent, compute: policy) { whole in
            let tiled = Tiled(whole)
            let manifest = tiled.manifest
            guard manifest.revision == revision else {
                throw StoreError(
                    .notFound, "revision \(revision.quotedForMessage) of the tiles of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) "
                        + "is not current; the current revision is \(manifest.revision.quotedForMessage)",
                    spec: name, crossExtent: crossExtent, cause: StaleTileRevision(asked: revision, current: manifest.revision))
            }
            guard index >= 0, index < manifest.tileCount else {
                throw StoreError(
                    .notFound, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) has \(manifest.tileCount) "
                        + "tile\(manifest.tileCount == 1 ? "" : "s") (0 to \(manifest.tileCount - 1)), no tile \(index)",
                    spec: name, crossExtent: crossExtent)
            }
            return try tiled.tile(index, direction: direction, offsets: offsets, maximumElements: maximumElements)
        }
    }

    /// `body`'s value on the whole fresh layout (its last run's), or why it is missing.
    private func tiled<T: Sendable>(
        name: String, crossExtent: Double, compute policy: ComputePolicy, _ body: @escaping @Sendable (WholeLayout) throws -> T
    ) async throws -> TileResult<T> {
        let value = Locked<T?>(nil)
        switch try await readWholeLayout(name: name, crossExtent: crossExtent, compute: policy, { whole in
            let made = try body(whole)
            value.withLock { $0 = made }
        }) {
        case .found(_, let computed):
            guard let made = value.withLock({ $0 }) else { throw StoreError(.internal, "a tile read that found its layout ran nothing") }
            return .found(made, computed: computed)
        case .missing(let missing):
            return .missing(missing)
        }
    }
}

/// A layout read whole for tiles: how it is cut, and its manifest.
private struct Tiled {
    let whole: WholeLayout
    let tiles: TileGeometry
    let manifest: TileManifest

    init(_ whole: WholeLayout) {
        self.whole = whole
        tiles = TileGeometry(layout: whole.layout, overhang: whole.overhang)
        let revision = TileRevision.of(whole, tiles: tiles)
        manifest = TileManifest(layout: whole.layout, revision: revision, tileLength: tiles.length, tileCount: tiles.count)
    }

    func tile(_ index: Int, direction: LayoutDirection, offsets: OrthogonalOffsets, maximumElements: Int?) throws -> LayoutTile {
        let layout = whole.layout
        let rect = tiles.rect(index)
        let answer = try whole.answer(rect, direction: direction, offsets: offsets, maximumElements: maximumElements)
        // The band left to right (the stored frames'), along the scroll axis.
        let stored = direction == .rightToLeft ? Mirror(contentSize: layout.contentSize)(rect) : rect
        let band = layout.axis.localFrame(stored)
        var pinning: [SectionPinning] = []
        let margin = whole.overhang + tiles.length
        for section in whole.sections(from: band.scroll - margin, through: band.scrollEnd + margin) {
            let geometry = section.geometry
            guard let cells = geometry.absoluteCellSpan, geometry.header?.pinned == true || geometry.footer?.pinned == true else { continue }
            // Where its header and footer can be, pinned or not.
            let footerFloor = cells.lowerBound - geometry.scrollStartInset
            let low = min(geometry.start, footerFloor)
            let high = max(geometry.end, cells.upperBound, footerFloor + geometry.footerLength)
            guard low < band.scrollEnd, band.scroll < high else { continue }
            let query = SectionQuery(section: geometry, axis: layout.axis, crossExtent: layout.crossExtent)
            pinning.append(SectionPinning(
                section: geometry.index, start: geometry.start, end: geometry.end, cells: cells, scrollStartInset: geometry.scrollStartInset,
                header: query.supplementary(.header).map { direction.apply(to: $0, contentSize: layout.contentSize) },
                headerPinned: geometry.header?.pinned == true,
                footer: query.supplementary(.footer).map { direction.apply(to: $0, contentSize: layout.contentSize) },
                footerPinned: geometry.footer?.pinned == true
            ))
        }
        return LayoutTile(
            manifest: manifest, index: index, direction: direction, elements: answer.elements, orthogonal: answer.orthogonal, pinning: pinning
        )
    }
}
