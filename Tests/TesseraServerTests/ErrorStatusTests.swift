import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
@testable import TesseraSQLite
@testable import SQLiteToolkit

@Suite("server: every error status of the contract, as problem+json")
struct ErrorStatusTests {
    /// A request and the status and detail it must get.
    struct Case: Sendable, CustomTestStringConvertible {
        var method: HTTPRequest.Method = .get
        var uri: String
        var status: HTTPResponse.Status
        var detail: String
        var testDescription: String { "\(method.rawValue) \(uri)" }
    }

    static let reads: [Case] = [
        Case(uri: "/v1/feeds/feed/layouts/390/visible", status: .badRequest, detail: "the rect is missing: add ?rect=x,y,w,h"),
        Case(uri: "/v1/feeds/feed/layouts/390/visible?rect=1,2,3", status: .badRequest, detail: "rect=\"1,2,3\": expected 4 numbers x,y,w,h, got 3"),
        Case(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,-1,5", status: .badRequest, detail: "rect=\"0,0,-1,5\": the width and height must not be negative"),
        Case(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,x,1,5", status: .badRequest, detail: "rect=\"0,x,1,5\": \"x\" is not a finite number"),
        Case(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,1,1&rect=0,0,1,1", status: .badRequest, detail: "give one rect=x,y,w,h, not 2"),
        // Percent-decoded, a NUL inside a number: the C library would stop reading there.
        Case(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,390,8%0044", status: .badRequest,
             detail: "rect=\"0,0,390,8\\u000044\": \"8\\u000044\" is not a finite number"),
        Case(uri: "/v1/feeds/feed/layouts/abc/rect?rect=0,0,1,1", status: .badRequest, detail: "the extent \"abc\" is not a number (write it as in JSON: 390, 390.5, 1e3)"),
        Case(uri: "/v1/feeds/feed/layouts/0x10/rect?rect=0,0,1,1", status: .badRequest, detail: "the extent \"0x10\" is not a number (write it as in JSON: 390, 390.5, 1e3)"),
        Case(uri: "/v1/feeds/feed/layouts/0/rect?rect=0,0,1,1", status: .badRequest, detail: "the extent must be a finite number above 0, got \"0\""),
        Case(uri: "/v1/feeds/feed/layouts/-5/rect?rect=0,0,1,1", status: .badRequest, detail: "the extent must be a finite number above 0, got \"-5\""),
        Case(uri: "/v1/feeds/feed/layouts/1e400/rect?rect=0,0,1,1", status: .badRequest, detail: "the extent must be a finite number above 0, got \"1e400\""),
        Case(uri: "/v1/feeds/feed/layouts/390/items/x/1", status: .badRequest, detail: "the section number \"x\" is not a whole number of 0 or more"),
        Case(uri: "/v1/feeds/feed/layouts/390/items/0/-1", status: .badRequest, detail: "the item number \"-1\" is not a whole number of 0 or more"),
        Case(uri: "/v1/feeds/fe%zzed/layouts/390/items/0/1", status: .badRequest, detail: "the spec name \"fe%zzed\" has a '%' not followed by two hex digits"),
        Case(uri: "/v1/feeds/%FF/layouts/390/items/0/1", status: .badRequest, detail: "the spec name \"%FF\" is not valid UTF-8 once percent-decoded"),
        Case(uri: "/v1/feeds/nope/layouts/390/rect?rect=0,0,1,1", status: .notFound, detail: "no spec named \"nope\" is stored; save or precompute it first"),
        Case(uri: "/v1/feeds/feed/layouts/390/items/3/0", status: .notFound, detail: "spec \"feed\" has no section 3 (it has 3)"),
        Case(uri: "/v1/feeds/feed/layouts/390/items/2/50", status: .notFound, detail: "spec \"feed\" has no item 50 in section 2"),
        Case(uri: "/v1/feeds/feed/layouts/390.5/rect?rect=0,0,1,1", status: .notFound,
             detail: "the layout of \"feed\" at 390.5 is not stored, and this server computes new layouts only at whole-point extents from 200 to 3000"),
        Case(uri: "/v1/feeds/feed/layouts/100000000/rect?rect=0,0,1,1", status: .notFound,
             detail: "the layout of \"feed\" at 100000000 is not stored, and this server computes new layouts only at whole-point extents from 200 to 3000"),
        Case(uri: "/v1/nothing", status: .notFound, detail: "no such route"),
        Case(method: .patch, uri: "/v1/feeds/feed", status: .methodNotAllowed, detail: "PATCH is not a method of this route; it takes GET, HEAD, PUT, DELETE, OPTIONS"),
        Case(method: .post, uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,1,1", status: .methodNotAllowed,
             detail: "POST is not a method of this route; it takes GET, HEAD, OPTIONS"),
        Case(method: .get, uri: "/v1/feeds/feed/sections/0/items", status: .methodNotAllowed, detail: "GET is not a method of this route; it takes POST, PATCH, OPTIONS"),
        Case(method: .put, uri: "/v1/health", status: .methodNotAllowed, detail: "PUT is not a method of this route; it takes GET, HEAD, OPTIONS"),
    ]

    @Test("bad reads", arguments: reads)
    func read(_ request: Case) async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: request.uri, method: request.method)
            #expect(response.status == request.status)
            #expect(response.headers[.contentType] == "application/problem+json")
            let problem = response.problem
            #expect(problem["detail"] as? String == request.detail)
            #expect(problem["status"] as? Int == request.status.code)
            #expect(problem["title"] as? String == request.status.reasonPhrase)
            #expect(problem["type"] as? String == "about:blank")
            if request.status == .methodNotAllowed { #expect(response.headers[.allow] != nil) }
        }
    }

    @Test("a missing layout is 404 under --no-compute and past --max-extents; a stale one at a stored extent is recomputed")
    func computeLimits() async throws {
        let fixture = try await ServerFixture(extents: [390, 430])
        let noCompute = TesseraServiceConfiguration(computesMissingLayouts: false)
        try await fixture.application(noCompute).test(.router) { client in
            let missing = try await client.execute(uri: "/v1/feeds/feed/layouts/500/rect?rect=0,0,1,1", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.problem["detail"] as? String == "the layout of \"feed\" at 500 is missing or stale, and this server does not compute layouts")
            try await fixture.store.invalidate(name: "feed", crossExtent: 390)
            let stale = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,1,1", method: .get)
            #expect(stale.status == .notFound)
        }
        let capped = TesseraServiceConfiguration(maximumExtents: 2)
        try await fixture.application(capped).test(.router) { client in
            let stale = try await client.execute(uri: "/v1/feeds/feed/layouts/390/rect?rect=0,0,1,1", method: .get)
            #expect(stale.status == .ok)
            let third = try await client.execute(uri: "/v1/feeds/feed/layouts/500/rect?rect=0,0,1,1", method: .get)
            #expect(third.status == .notFound)
            #expect(third.problem["detail"] as? String
                == "the layout of \"feed\" at 500 is not stored, and \"feed\" already has 2 stored extents, the server's limit of 2 extents per spec")
        }
        #expect(try await fixture.store.layouts(name: "feed").map(\.crossExtent) == [390, 430])
        #expect(try await fixture.store.layouts(name: "feed").allSatisfy { $0.state == .fresh })
    }

    @Test("a damaged store answers 500 saying so, never frames")
    func damaged() async throws {
        let fixture = try await ServerFixture()
        // The stored spec's section is no longer JSON, and the layout must be computed from it again.
        let pool = try #require(fixture.store.sqlitePool)
        try pool.write { connection in try connection.execute("UPDATE spec_sections SET body = '{' WHERE section = 1") }
        try await fixture.store.invalidate(name: "feed", crossExtent: 390)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get)
            #expect(response.status == .internalServerError)
            #expect(response.headers[.contentType] == "application/problem+json")
            #expect((response.problem["detail"] as? String)?.contains("is damaged") == true, "\(response.text)")
        }
    }
}
