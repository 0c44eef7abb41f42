import Hummingbird
import NIOCore
import NIOHTTP1
import TesseraLayout
import TesseraStore

/// An error answer in the contract's form: `application/problem+json`
/// (RFC 9457) with `type`, `title`, `status`, `detail` and, when a JSON path
/// of the spec or item is known, `path`.
///
/// Handlers throw it; the middleware that ``TesseraRoutes`` puts around
/// every route also turns Hummingbird's own errors (an unknown route, a body
/// over the limit) into one, and counts and logs the answer.
///
/// ```swift
/// throw Problem(.notFound, "no feed \"home\"")
/// ```
public struct Problem: HTTPResponseError, Sendable, Equatable {
    public var status: HTTPResponse.Status
    /// The sentence for people.
    public var detail: String
    /// The JSON path of the spec or item that broke a rule.
    public var path: String?
    /// Headers the answer carries besides its content type (`Allow`,
    /// `WWW-Authenticate`, `Retry-After`).
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ detail: String, path: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.path = path
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response()
    }

    /// The answer, with its body.
    package func response() -> Response {
        var headers = self.headers
        headers[.contentType] = "application/problem+json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// The problem object's text.
    package var body: String {
        var text = "{\"type\": \"about:blank\", \"title\": \(JSONWriter.quote(status.reasonPhrase)), \"status\": \(status.code), "
            + "\"detail\": \(JSONWriter.quote(detail))"
        if let path { text += ", \"path\": \(JSONWriter.quote(path))" }
        return text + "}"
    }
}

extension Problem {
    /// The status a store error answers with: what the client sent is 4xx,
    /// a store that cannot serve is 5xx (a damaged store says so, and is
    /// never answered with frames).
    package init(_ error: StoreError) {
        switch error.code {
        case .invalidSpec, .invalidArgument:
            self.init(.badRequest, error.message, path: error.path)
        case .tooLarge:
            self.init(.badRequest, (error.cause as? AnswerTooLarge)?.sentence(limitOf: "the server's") ?? error.message)
        case .notFound:
            self.init(.notFound, error.message)
        case .conflict:
            self.init(.conflict, error.message)
        case .busy, .cancelled, .closed:
            self.init(.serviceUnavailable, error.message, headers: [.retryAfter: "1"])
        case .readOnly:
            self.init(.serviceUnavailable, "the store cannot be written: \(error.message)")
        case .diskFull:
            self.init(.init(code: 507, reasonPhrase: "Insufficient Storage"), error.message)
        case .damaged, .notAStore, .schemaTooNew, .unsupported, .io, .internal:
            self.init(.internalServerError, error.message)
        }
    }

    /// A spec or item that breaks a rule of the format.
    package init(_ error: SpecError) {
        self.init(.badRequest, error.description, path: error.path.isEmpty ? nil : error.path)
    }

    /// Any error a handler let through, as the problem it answers with.
    package static func from(_ error: any Error) -> Problem {
        switch error {
        case let problem as Problem: return problem
        case let error as StoreError: return Problem(error)
        case let error as SpecError: return Problem(error)
        case HTTPParserError.invalidEOFState:
            return Problem(.badRequest, "the request ended before its body did (the connection closed midway)")
        case let error as HTTPParserError:
            return Problem(.badRequest, "the request is not valid HTTP: \(error)")
        case is NIOTooManyBytesError:
            return Problem(.contentTooLarge, "the request body is larger than the server takes")
        case let error as HTTPError:
            return Problem(error.status, error.status == .notFound ? "no such route" : error.body ?? error.status.reasonPhrase, headers: error.headers)
        case let error as any HTTPResponseError:
            return Problem(error.status, error.status.reasonPhrase)
        case is CancellationError:
            return Problem(.serviceUnavailable, "the request was cancelled")
        default:
            return Problem(.internalServerError, "internal error: \(error)")
        }
    }
}
