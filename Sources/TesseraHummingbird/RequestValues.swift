import Hummingbird
import TesseraLayout

/// The values a request carries in its path and query, each read strictly:
/// anything malformed is a 400 that names the value and what is wrong.
package enum RequestValues {
    /// A spec name from a path component, percent-decoded and in Normalization
    /// Form C; it must be valid UTF-8 once decoded (`%2F` is a `/` inside the name).
    package static func name(_ component: String?) throws(Problem) -> String {
        guard let component, !component.isEmpty else { throw Problem(.badRequest, "the spec name is missing") }
        return Spec.normalizedName(try percentDecoded(component[...], what: "the spec name "))
    }

    /// `text` with its `%XX` escapes decoded, strictly: a stray `%` or
    /// bytes that are not UTF-8 are a 400 about `what` (a `+` stays a `+`).
    private static func percentDecoded(_ text: Substring, what: String) throws(Problem) -> String {
        // Without a '%' the text is already what it says.
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw Problem(.badRequest, "\(what)\(String(text).quotedForMessage) has a '%' not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw Problem(.badRequest, "\(what)\(String(text).quotedForMessage) is not valid UTF-8 once percent-decoded")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A container width or height: a JSON number, finite and above 0.
    package static func extent(_ text: String?) throws(Problem) -> Double {
        let text = text ?? ""
        guard let value = DecimalText.jsonNumber(text[...]) else {
            throw Problem(.badRequest, "the extent \(String(text).quotedForMessage) is not a number (write it as in JSON: 390, 390.5, 1e3)")
        }
        guard value.isFinite, value > 0 else {
            throw Problem(.badRequest, "the extent must be a finite number above 0, got \(String(text).quotedForMessage)")
        }
        return value
    }

    /// A section or item number: decimal digits.
    package static func index(_ text: String?, of what: String) throws(Problem) -> Int {
        let text = text ?? ""
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = Int(text) else {
            throw Problem(.badRequest, "the \(what) number \(String(text).quotedForMessage) is not a whole number of 0 or more")
        }
        return value
    }

    /// The `rect=x,y,w,h` query parameter, in the CLI's syntax.
    package static func rect(_ request: Request) throws(Problem) -> Rect {
        let values = queryValues("rect", of: request)
        guard values.count == 1, let text = values.first else {
            throw Problem(.badRequest, values.isEmpty ? "the rect is missing: add ?rect=x,y,w,h" : "give one rect=x,y,w,h, not \(values.count)")
        }
        do {
            return try Rect(parsing: text)
        } catch {
            throw Problem(.badRequest, "rect=\(String(text).quotedForMessage): \(error.description)")
        }
    }

    /// The `direction=ltr|rtl` query parameter of a layout's read routes
    /// (the spec format article, "Right to left"); left to right when absent.
    package static func direction(_ request: Request) throws(Problem) -> LayoutDirection {
        let values = queryValues("direction", of: request)
        guard let text = values.first else { return .leftToRight }
        guard values.count == 1 else { throw Problem(.badRequest, "give one direction=ltr or direction=rtl, not \(values.count)") }
        guard let direction = LayoutDirection(rawValue: String(text)) else {
            throw Problem(.badRequest, "direction=\(String(text).quotedForMessage): must be ltr or rtl")
        }
        return direction
    }

    /// The `offset=SECTION:X` query parameters of a layout's read routes
    /// (the spec format article, "Orthogonal sections"), repeatable: each
    /// carousel's scroll offset; none when absent. At most
    /// `OrthogonalOffsets.maximumCount`, counted before anything is kept.
    package static func offsets(_ request: Request) throws(Problem) -> OrthogonalOffsets {
        let values = queryValues("offset", of: request)
        guard !values.isEmpty else { return .none }
        do {
            return try OrthogonalOffsets(parsing: values, separator: ":")
        } catch {
            throw Problem(.badRequest, "offset: \(error.description) (write offset=SECTION:X, as offset=2:240)")
        }
    }

    /// The `limit=N` of a listing: the most specs a page holds, from 1 to
    /// `maximum`; `standard` when absent.
    package static func limit(_ request: Request, standard: Int, maximum: Int) throws(Problem) -> Int {
        let values = queryValues("limit", of: request)
        guard let text = values.first else { return standard }
        guard values.count == 1 else { throw Problem(.badRequest, "give one limit=N, not \(values.count)") }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), (1...maximum).contains(value)
        else {
            throw Problem(.badRequest, "limit=\(String(text).quotedForMessage): must be a whole number from 1 to \(maximum)")
        }
        return value
    }

    /// The `after=NAME` of a listing, percent-decoded and normalized as a
    /// name in a path is: the page begins after it (it need not be stored); nil when absent.
    package static func after(_ request: Request) throws(Problem) -> String? {
        let values = request.uri.query.map { rawQueryValues("after", in: $0) } ?? []
        guard let text = values.first else { return nil }
        guard values.count == 1 else { throw Problem(.badRequest, "give one after=NAME, not \(values.count)") }
        return Spec.normalizedName(try percentDecoded(text, what: "after="))
    }

    /// The values of a query parameter, as Hummingbird's `queryParameters`
    /// gives them. A query with no `%` escape (nearly every one) is read
    /// in place, without building the dictionary of all its parameters.
    package static func queryValues(_ key: String, of request: Request) -> [Substring] {
        guard let query = request.uri.query else { return [] }
        guard !query.utf8.contains(UInt8(ascii: "%")) else { return request.uri.queryParameters.getAll(key).map { $0[...] } }
        return rawQueryValues(key, in: query)
    }

    /// The values of a query parameter as sent, escapes and all.
    private static func rawQueryValues(_ key: String, in query: String) -> [Substring] {
        var values: [Substring] = []
        for part in query.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = part.firstIndex(of: UInt8(ascii: "=")) ?? part.endIndex
            guard part[..<equals].elementsEqual(key.utf8) else { continue }
            values.append(equals == part.endIndex ? "" : Substring(part[part.index(after: equals)...]))
        }
        return values
    }

    /// Every `extent=` query parameter.
    package static func extents(_ request: Request) throws(Problem) -> [Double] {
        var extents: [Double] = []
        for text in queryValues("extent", of: request) {
            extents.append(try extent(String(text)))
        }
        return extents
    }
}
