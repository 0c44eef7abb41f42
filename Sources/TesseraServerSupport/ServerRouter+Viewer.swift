import Hummingbird
import TesseraHummingbird
import TesseraViewer

/// `tessera-server --viewer`: the viewer's page and modules at `/viewer/`,
/// and `/viewer/viewer.json`, which tells the page that the routes are one
/// folder up.
extension ServerRouter {
    static func registerViewer(on router: Router<BasicRequestContext>, routes: TesseraRoutes<BasicRequestContext>) {
        let page = ViewerFiles.files[0]
        // The router reads `/viewer` and `/viewer/` alike; the page's relative
        // URLs need the slash.
        routes.register(on: router, "/viewer", get: { request, _ in
            guard request.uri.path.hasSuffix("/") else {
                let query = request.uri.query.map { "?" + $0 } ?? ""
                return Response(status: .movedPermanently, headers: [.location: "/viewer/" + query])
            }
            return file(page.bytes, contentType: page.contentType)
        })
        for viewerFile in ViewerFiles.files {
            routes.register(on: router, RouterPath("/viewer/\(viewerFile.name)"), get: { _, _ in
                file(viewerFile.bytes, contentType: viewerFile.contentType)
            })
        }
        routes.register(on: router, RouterPath("/viewer/\(ViewerFiles.sourceName)"), get: { _, _ in
            file(Array(ViewerFiles.serverSource.utf8), contentType: "application/json")
        })
    }

    /// A file of the viewer, revalidated on each load (a new server may serve a new page).
    private static func file(_ bytes: [UInt8], contentType: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: contentType, .cacheControl: "no-cache", .xContentTypeOptions: "nosniff"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }
}
