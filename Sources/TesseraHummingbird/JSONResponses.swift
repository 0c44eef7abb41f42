import Hummingbird
import TesseraLayout
import TesseraStore

/// The bodies the routes answer with: the CLI's `--format json` output,
/// byte for byte (its final newline included).
package enum JSONResponses {
    /// A JSON text, with a newline after it as the CLI prints it.
    package static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(text.utf8.count + 1)
        buffer.writeString(text)
        buffer.writeInteger(UInt8(ascii: "\n"))
        return Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
    }

    /// A layout answer with its `ETag`, or 304 with no body when the
    /// request's `If-None-Match` names that tag. The answer is written
    /// straight into the response buffer, or in pieces when large.
    /// A large answer's body keeps `lease` until it is written or dropped.
    package static func answer(_ answer: LayoutAnswer, request: Request, holding lease: AnswerBudget.Lease? = nil) -> Response {
        var tag = "\""
        tag.reserveCapacity(answer.revisionTag.utf8.count + 2)
        tag += answer.revisionTag
        tag += "\""
        if let condition = request.headers[.ifNoneMatch], matches(condition, tag: tag) {
            return Response(status: .notModified, headers: [.eTag: tag])
        }
        let headers: HTTPFields = [.contentType: "application/json", .eTag: tag]
        guard answer.elements.count > elementsPerPiece else {
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body(of: answer)))
        }
        return Response(status: .ok, headers: headers, body: pieces(of: answer, holding: lease))
    }

    /// Answers of more elements are written in pieces of this many (about
    /// 120 KB of text each).
    package static let elementsPerPiece = 1024

    /// The bytes of ``body(of:)`` in pieces of ``elementsPerPiece``
    /// elements, each made when the connection has taken the one before:
    /// a client that reads slowly holds the server to the elements and
    /// one piece of text, never to the whole text.
    package static func pieces(of answer: LayoutAnswer, holding lease: AnswerBudget.Lease?) -> ResponseBody {
        ResponseBody { writer in
            defer { withExtendedLifetime(lease) {} }
            let elements = answer.elements
            var bytes: [UInt8] = []
            bytes.reserveCapacity(LayoutJSON.maximumAnswerLength(elementCount: elementsPerPiece, orthogonalCount: answer.orthogonal.count) + 1)
            LayoutJSON.appendAnswerOpening(summary: answer.layout.summary, orthogonal: answer.orthogonal, to: &bytes)
            for start in stride(from: 0, to: elements.count, by: elementsPerPiece) {
                for index in start..<min(start + elementsPerPiece, elements.count) {
                    LayoutJSON.appendAnswerElement(elements[index], first: index == 0, to: &bytes)
                }
                try await writer.write(ByteBuffer(bytes: bytes))
                bytes.removeAll(keepingCapacity: true)
            }
            LayoutJSON.appendAnswerClosing(empty: elements.isEmpty, to: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            try await writer.write(ByteBuffer(bytes: bytes))
            try await writer.finish(nil)
        }
    }

    /// The answer's JSON and a newline, as `tessera query --format json`
    /// prints it, written straight into a new buffer.
    package static func body(of answer: LayoutAnswer) -> ByteBuffer {
        let capacity = LayoutJSON.maximumAnswerLength(elementCount: answer.elements.count, orthogonalCount: answer.orthogonal.count) + 1
        var buffer = ByteBuffer()
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { memory in
            guard let start = memory.baseAddress else { return 0 }
            let written = LayoutJSON.writeAnswer(
                summary: answer.layout.summary, orthogonal: answer.orthogonal, elements: answer.elements, into: start
            )
            start.storeBytes(of: UInt8(ascii: "\n"), toByteOffset: written, as: UInt8.self)
            return written + 1
        }
        return buffer
    }

    /// Whether an `If-None-Match` list (`"a", W/"b"` or `*`) names `tag`;
    /// weak tags compare as their strong form, as RFC 9110 asks for this header.
    package static func matches(_ condition: String, tag: String) -> Bool {
        condition.split(separator: ",").contains { candidate in
            var candidate = candidate.drop(while: { $0 == " " || $0 == "\t" })
            while let last = candidate.last, last == " " || last == "\t" { candidate = candidate.dropLast() }
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            return candidate == tag
        }
    }
}
