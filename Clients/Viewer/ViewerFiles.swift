/// The viewer's page, its module and the tile client it imports, as
/// `tessera-server --viewer` serves them at `/viewer/` and `tessera export
/// --tiles` writes them beside the tiles. Their bytes are compiled in from
/// `Clients/` at build time (SwiftPM's `embedInCode`): one source, and a
/// binary moved anywhere still has them.
package enum ViewerFiles {
    /// A file of the viewer's folder.
    package struct File: Sendable {
        /// Its name in the folder (the page imports the client as `tessera-tiles.js`).
        package let name: String
        package let contentType: String
        package let bytes: [UInt8]
    }

    /// The page's folder: `index.html`, `viewer.js` and `tessera-tiles.js`.
    package static let files: [File] = [
        File(name: "index.html", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        File(name: "viewer.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.viewer_js),
        // `.js`, not `.mjs`: static servers (Debian's nginx among them) know no JavaScript type for `.mjs`.
        File(name: "tessera-tiles.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.tessera_tiles_mjs),
    ]

    /// The name of the file beside the page that says where its feeds are.
    package static let sourceName = "viewer.json"

    /// `viewer.json` as the server answers it: the routes are one folder up.
    package static let serverSource = #"{"source": "server", "api": "../"}"# + "\n"
}
