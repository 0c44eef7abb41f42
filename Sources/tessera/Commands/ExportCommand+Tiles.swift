import Foundation
import TesseraCommandSupport
import TesseraGzip
import TesseraLayout
import TesseraStore
import TesseraTiles

/// `tessera export --tiles DIR`: a layout's tile manifest and every tile as
/// files at the paths of the HTTP routes, byte for byte the server's
/// answers, for a static host or an object store behind a CDN.
///
/// `DIR/v1/feeds/NAME/layouts/EXTENT/tiles` holds the manifest,
/// `DIR/v1/feeds/NAME/layouts/EXTENT/revisions/R/tiles/I` tile I and
/// `…/revisions/R/columns/I` the same tile as columns (the manifest's
/// relative templates lead there from the manifest's URL);
/// with `--gzip`, each file has a `.gz` sibling (nginx's `gzip_static`).
///
/// Right to left (`--rtl`), the same files under `…/layouts/EXTENT/rtl/`:
/// each the server's answer to the same path with `direction=rtl`, the
/// manifest's templates included (they carry `?direction=rtl`, which a
/// static host ignores: the path alone names the file). Carousels are
/// written unscrolled: `offset=` variants are not exported, since an app
/// scrolls a carousel itself (a tile holds all of its cells, and
/// `orthogonal` its content length).
struct TileExport {
    /// Where the files are written (a staging folder, see `StagingFolder`).
    let directory: String
    /// The folder they are for, named in errors.
    let target: String
    let name: String
    let gzip: Bool
    /// Each direction's tiles: left to right at the routes' paths, right
    /// to left under `…/EXTENT/rtl/`.
    var directions: [LayoutDirection] = [.leftToRight]

    /// Writes one layout's manifest and tiles in each direction; its revision, axis and number of tiles.
    func write(store: LayoutStore, crossExtent: Double) async throws -> (revision: String, tiles: Int, axis: Axis) {
        var written: (revision: String, tiles: Int, axis: Axis) = ("", 0, .vertical)
        for direction in directions { written = try await write(store: store, crossExtent: crossExtent, direction: direction) }
        return written
    }

    private func write(store: LayoutStore, crossExtent: Double, direction: LayoutDirection) async throws -> (revision: String, tiles: Int, axis: Axis) {
        guard case .found(let manifest, _) = try await store.tileManifest(name: name, crossExtent: crossExtent, compute: .never) else {
            throw CommandError("the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) is missing or stale")
        }
        let layoutPath = "\(directory)/v1/feeds/\(name)/layouts/\(JSONWriter.format(crossExtent))" + (direction == .rightToLeft ? "/rtl" : "")
        let revisionPath = "\(layoutPath)/revisions/\(manifest.revision)"
        for folder in ["tiles", "columns"] {
            try FileManager.default.createDirectory(atPath: "\(revisionPath)/\(folder)", withIntermediateDirectories: true)
        }
        for index in 0..<manifest.tileCount {
            let result = try await store.tile(
                name: name, crossExtent: crossExtent, revision: manifest.revision, index: index, direction: direction, compute: .never)
            guard case .found(let tile, _) = result else {
                throw CommandError("the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) changed while its tiles were written; run export again")
            }
            try put(TileJSON.tile(tile), at: "\(revisionPath)/tiles/\(index)")
            try put(TileJSON.columnTile(tile), at: "\(revisionPath)/columns/\(index)")
        }
        // The manifest last: a host never names tiles not yet written.
        try put(TileJSON.manifest(manifest, query: TileJSON.query(direction: direction, offsets: .none)), at: "\(layoutPath)/tiles")
        return (manifest.revision, manifest.tileCount, manifest.layout.axis)
    }

    func put(_ bytes: [UInt8], at path: String) throws {
        try write(bytes, to: path)
        if gzip, let compressed = Gzip.compress(bytes, level: 9) { try write(compressed, to: path + ".gz") }
    }

    private func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StagingFolder.failure(errno, path: target, target: target) }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0 && errno == EINTR { continue }
                throw StagingFolder.failure(count < 0 ? errno : EIO, path: target, target: target)
            }
            written += count
        }
    }

    /// A spec name that can be a folder's name as a static server maps the
    /// URL to files (percent-decoded): no `/`, not `.` or `..`.
    static func checkName(_ name: String) throws {
        guard !name.contains("/"), name != ".", name != "..", !name.isEmpty else {
            throw CommandError("the spec name \(name.quotedForMessage) cannot be a folder name (it holds '/' or is '.' or '..'): "
                + "serve its tiles with tessera-server")
        }
    }
}
