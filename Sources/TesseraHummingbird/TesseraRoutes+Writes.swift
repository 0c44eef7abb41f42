import Hummingbird
import NIOCore
import TesseraLayout
import TesseraStore
import TesseraStoreJSON

/// The write routes: each needs the bearer token, reads its body within
/// the size limit, and happens whole or not at all (the store's
/// transactions).
extension TesseraRoutes {
    /// `PUT /v1/feeds/{name}?extent=E…`: stores a spec and lays it out.
    @Sendable func putFeed(_ request: Request, _ context: Context) async throws -> Response {
        try authorize(request)
        let name = try RequestValues.name(context.parameters.get("name"))
        let extents = try RequestValues.extents(request)
        let spec = try RequestBodies.spec(try await body(of: request, context: context), name: name, registry: store.registry)
        let result = try await store.save(spec, as: name, crossExtents: extents)
        return JSONResponses.text(StoreJSON.report(name: name, result.report), status: result.created ? .created : .ok)
    }

    /// `POST /v1/feeds/{name}/sections/{section}/items`: appends NDJSON items.
    @Sendable func appendItems(_ request: Request, _ context: Context) async throws -> Response {
        try authorize(request)
        let name = try RequestValues.name(context.parameters.get("name"))
        let section = try RequestValues.index(context.parameters.get("section"), of: "section")
        let items = try RequestBodies.items(try await body(of: request, context: context))
        let report = try await store.append(name: name, section: section, items: items)
        return JSONResponses.text(StoreJSON.report(name: name, report))
    }

    /// `PATCH /v1/feeds/{name}/sections/{section}/items`: replaces fields of
    /// items (NDJSON changes, ``ItemChange``) and lays every stored extent
    /// out again from the first changed item.
    @Sendable func resizeItems(_ request: Request, _ context: Context) async throws -> Response {
        try authorize(request)
        let name = try RequestValues.name(context.parameters.get("name"))
        let section = try RequestValues.index(context.parameters.get("section"), of: "section")
        let changes = try ItemChange.changes(ndjson: try await body(of: request, context: context).readableBytesView, section: section)
        let report = try await store.resize(name: name, section: section, changes: changes)
        return JSONResponses.text(StoreJSON.report(name: name, report))
    }

    /// `DELETE /v1/feeds/{name}/layouts/{extent}`: marks the layout stale.
    @Sendable func deleteLayout(_ request: Request, _ context: Context) async throws -> Response {
        try authorize(request)
        let name = try RequestValues.name(context.parameters.get("name"))
        let extent = try RequestValues.extent(context.parameters.get("extent"))
        guard try await store.invalidate(name: name, crossExtent: extent) > 0 else {
            throw Problem(.notFound, "spec \(name.quotedForMessage) has no layout at \(JSONWriter.format(extent))")
        }
        return Response(status: .noContent)
    }

    /// `DELETE /v1/feeds/{name}`: deletes the spec and its layouts; on a
    /// full disk, once more with the configuration's reserve given back.
    @Sendable func deleteFeed(_ request: Request, _ context: Context) async throws -> Response {
        try authorize(request)
        let name = try RequestValues.name(context.parameters.get("name"))
        let deleted: Bool
        do {
            deleted = try await store.deleteSpec(named: name)
        } catch let error as StoreError where error.code == .diskFull {
            guard let reserve = configuration.diskReserve, reserve.release() else { throw error }
            deleted = try await store.deleteSpec(named: name)
        }
        configuration.diskReserve?.restore()
        guard deleted else { throw Problem(StoreError.noSuchSpec(name: name)) }
        return Response(status: .noContent)
    }

    /// 403 when the server takes no writes, 401 without the right token.
    func authorize(_ request: Request) throws(Problem) {
        switch configuration.writeAccess {
        case .forbidden:
            throw Problem(.forbidden, "this server takes no writes (it was started without a write token)")
        case .bearerToken(let token):
            let challenge: HTTPFields = [.wwwAuthenticate: "Bearer realm=\"tessera\""]
            guard let header = request.headers[.authorization] else {
                throw Problem(.unauthorized, "a write needs the header Authorization: Bearer TOKEN", headers: challenge)
            }
            let parts = header.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].lowercased() == "bearer", Self.sameBytes(parts[1].utf8, token.utf8) else {
                throw Problem(.unauthorized, "the bearer token is not the server's", headers: challenge)
            }
        }
    }

    /// Compares every byte whatever differs first, so that the time taken
    /// tells nothing of where a guess went wrong.
    private static func sameBytes(_ given: Substring.UTF8View, _ expected: String.UTF8View) -> Bool {
        var difference = given.count == expected.count ? 0 : 1
        var expectedBytes = expected.makeIterator()
        for byte in given {
            difference |= Int(byte ^ (expectedBytes.next() ?? 0))
        }
        return difference == 0
    }

    /// The request body, refused with 413 beyond the limit (before reading
    /// it when its length is declared).
    private func body(of request: Request, context: Context) async throws -> ByteBuffer {
        let limit = configuration.maximumBodySize
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw Problem(.contentTooLarge, "the body has \(declared) bytes, more than the server's limit of \(limit) bytes per request body")
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw Problem(.contentTooLarge, "the body is larger than the server's limit of \(limit) bytes per request body")
        }
    }
}
