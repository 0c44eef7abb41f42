import Hummingbird
import NIOCore
import TesseraStore
import TesseraStoreJSON

/// `GET /v1/feeds?limit=N&after=NAME`: the listing, a page at a time.
extension TesseraRoutes {
    /// Specs read and written out at a time: a page is sent in pieces of
    /// this many (about 100 KB of text), each read and made on the store's
    /// executor when the connection has taken the one before.
    package static var specsPerPiece: Int { 500 }

    /// A page of `limit` specs after `after`, in pieces. Each piece is read
    /// in one snapshot and goes on after the last name of the one before: a
    /// spec written meanwhile is listed as it was or as it is, never twice.
    @Sendable func feeds(_ request: Request, _ context: Context) async throws -> Response {
        let limit = try RequestValues.limit(request, standard: ListingPage.standardLimit, maximum: ListingPage.maximumLimit)
        let after = try RequestValues.after(request)
        // Read before the answer begins: a store that fails answers with a problem, not a cut body.
        let first = try await Self.listingPiece(of: store, after: after, left: limit, first: true)
        let headers: HTTPFields = [.contentType: "application/json"]
        guard let start = first.cursor else { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: first.bytes)) }
        let store = store
        // The body reads the store as it is written: it holds the request's lease until then.
        let lease = ServedStore.lease
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { withExtendedLifetime(lease) {} }
            try await writer.write(first.bytes)
            var cursor = start
            var left = limit - first.count
            while true {
                let piece = try await Self.listingPiece(of: store, after: cursor, left: left, first: false)
                try await writer.write(piece.bytes)
                guard let next = piece.cursor else { break }
                cursor = next
                left -= piece.count
            }
            try await writer.finish(nil)
        })
    }

    /// Up to ``specsPerPiece`` of the `left` specs a page still holds,
    /// after `after`, as the text that goes on the page's JSON.
    private static func listingPiece(of store: LayoutStore, after: String?, left: Int, first: Bool) async throws -> ListingPiece {
        try await store.listing(after: after, limit: min(left, specsPerPiece)) { page in
            var text = first ? StoreJSON.listingOpening : ""
            text += StoreJSON.entries(page.specs, first: first)
            let ends = page.next == nil || page.specs.count == left
            if ends { text += StoreJSON.pageClosing(next: page.next) + "\n" }
            return ListingPiece(bytes: ByteBuffer(string: text), count: page.specs.count, cursor: ends ? nil : page.next)
        }
    }
}

/// A piece of a page of the listing: its text, the specs in it, and the
/// name the page goes on after (nil when this piece ends the page).
struct ListingPiece: Sendable {
    var bytes: ByteBuffer
    var count: Int
    var cursor: String?
}
