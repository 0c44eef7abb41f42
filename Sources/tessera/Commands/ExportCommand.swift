import TesseraLayout
import ArgumentParser
import TesseraSQLite

/// `tessera export --db FILE --out ARTIFACT [--replace]`: a compact, checked
/// copy of a store, ready to ship and open read-only; and/or
/// `--name NAME --width W… --tiles DIR [--gzip]`: a layout's tiles as static files.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a compact, checked copy of a store that opens read-only anywhere (no -wal or -shm file needed).",
        discussion: """
            Reads the store read-only, copies one snapshot of it into a single file in rollback-journal mode, \
            checks the copy (every checksum included), and only then puts it at --out. An existing --out is \
            refused unless --replace is given.

            With --tiles DIR, --name and one or more --width (vertical spec) or --height (horizontal spec): writes the \
            tile manifest and every tile of the spec's layout at each extent as files under DIR, at the paths of \
            tessera-server's tile routes (DIR/v1/feeds/NAME/layouts/W/tiles, DIR/v1/feeds/NAME/layouts/W/revisions/R/tiles/I, and the same tiles as columns at .../revisions/R/columns/I), \
            byte for byte the server's answers; --gzip adds a .gz beside each. --rtl adds the right-to-left tiles under \
            DIR/v1/feeds/NAME/layouts/W/rtl/ (the answers to direction=rtl; a static host ignores the query their manifest's \
            templates carry). Carousels are written unscrolled (no offset=): an app scrolls them itself. A missing or stale layout is computed \
            first, as query does. Beside the tiles go the viewer (DIR/index.html, viewer.js, tessera-tiles.js) and DIR/viewer.json, \
            the list of the feeds and extents exported into DIR (kept across exports into the same folder): any static server of DIR \
            shows the feeds.
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "The file to write the copy to.")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var replace = false

    @Option(help: "With --tiles: the spec whose tiles to write.", transform: Spec.normalizedName)
    var name: String?

    @Option(parsing: .unconditionalSingleValue, help: "With --tiles: a container width of the (vertical) spec; repeatable.", transform: ArgumentCheck.number)
    var width: [Double] = []

    @Option(parsing: .unconditionalSingleValue, help: "With --tiles: a container height of the (horizontal) spec; repeatable.", transform: ArgumentCheck.number)
    var height: [Double] = []

    @Option(help: "Write the tile manifest and tiles of --name at each --width or --height under this folder.")
    var tiles: String?

    @Flag(help: "With --tiles: also write a .gz file beside each (for nginx's gzip_static).")
    var gzip = false

    @Flag(help: "With --tiles: also write the right-to-left tiles (the routes' direction=rtl) under DIR/v1/feeds/NAME/layouts/W/rtl/.")
    var rtl = false

    func validate() throws {
        guard out != nil || tiles != nil else { throw ValidationError("give --out FILE (a copy of the store) or --tiles DIR (a layout's tiles), or both") }
        if tiles == nil, name != nil || !width.isEmpty || !height.isEmpty || gzip || rtl {
            throw ValidationError("--name, --width, --height, --gzip and --rtl go with --tiles DIR")
        }
        guard tiles != nil else { return }
        guard let name else { throw ValidationError("--tiles needs --name: the spec whose tiles to write") }
        guard !width.isEmpty || !height.isEmpty else { throw ValidationError("--tiles needs one or more --width (or --height for a horizontal spec)") }
        try TileExport.checkName(name)
        for value in width { try ArgumentCheck.extent(value, flag: "--width") }
        for value in height { try ArgumentCheck.extent(value, flag: "--height") }
    }

    func run() async throws {
        if let tiles, let name { try await exportTiles(to: tiles, name: name) }
        guard let out else { return }
        let store = try await database.openForReading()
        defer { store.close() }
        let report = try await reportingErrors { try await store.export(to: out, replacing: replace) }
        print("exported \(counted(report.specsChecked, "spec")), \(counted(report.layoutsChecked, "layout")) to \(out.quotedPathForMessage): checked, no problems")
    }

    /// Every layout's tiles are written into a staging folder first and put
    /// in place at the end: a failure (a full disk) leaves `directory` as it was.
    private func exportTiles(to directory: String, name: String) async throws {
        let staging = try StagingFolder(target: directory)
        var lines: [String] = []
        do {
            let export = TileExport(
                directory: staging.folder, target: directory, name: name, gzip: gzip, directions: rtl ? [.leftToRight, .rightToLeft] : [.leftToRight])
            var listing = try ViewerListing.read(in: directory)
            for (flag, values) in [("width", width), ("height", height)] {
                for value in values {
                    let extent = try ExtentOptions.parse(["--\(flag)", JSONWriter.format(value)])
                    let (store, layout) = try await StoreFile.freshLayout(database.db, name: name, extent: extent, command: "export")
                    defer { store.close() }
                    let written = try await reportingErrors { try await export.write(store: store, crossExtent: layout.crossExtent) }
                    listing.add(name: name, axis: written.axis, layout: .init(extent: layout.crossExtent, revision: written.revision, tileCount: written.tiles, rtl: rtl))
                    lines.append("exported \(counted(written.tiles, "tile")) of \(name.quotedForMessage) at \(flag) \(JSONWriter.format(value)), "
                        + "revision \(written.revision), to \(directory.quotedPathForMessage)")
                }
            }
            try export.writeViewer(listing)
            try reportingErrors { try staging.commit() }
        } catch {
            staging.discard()
            throw error
        }
        for line in lines { print(line) }
    }
}
