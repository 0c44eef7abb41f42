import Foundation
import TesseraLayout

/// Typed reads of a parsed manifest or tile: each read names the member
/// at fault (`elements[12].frame: expected 4 numbers`), its path built
/// only when a read fails.
struct JSONMembers {
    let object: JSONObject
    let path: () -> JSONPath

    /// Thrown with the member's path and the rule it breaks.
    struct Failure: Error {
        var message: String
    }

    /// `body`'s value, or its failure as an error naming `url`, `what` before the member's path.
    static func reading<Value>(_ url: URL, _ what: String, _ body: () throws(Failure) -> Value) throws(TileClientError) -> Value {
        do {
            return try body()
        } catch {
            throw TileClientError(url: url, reason: .invalidContent(what + ": " + error.message))
        }
    }

    init(_ value: JSONValue, at path: @escaping @autoclosure () -> JSONPath) throws(Failure) {
        guard case .object(let object) = value else { throw Self.failure(path(), "expected an object, found \(value.typeName)") }
        self.object = object
        self.path = path
    }

    static func failure(_ path: JSONPath, _ reason: String) -> Failure {
        let name = path.description
        return Failure(message: name.isEmpty ? reason : "\(name): \(reason)")
    }

    func failure(_ key: String, _ reason: String) -> Failure {
        Self.failure(path().appending(key), reason)
    }

    func value(_ key: String) throws(Failure) -> JSONValue {
        guard let value = object[key] else { throw failure(key, "missing") }
        return value
    }

    /// A finite number.
    func number(_ key: String) throws(Failure) -> Double {
        guard case .number(let number) = try value(key), number.isFinite else { throw failure(key, "expected a finite number") }
        return number
    }

    /// A whole number within `range`.
    func integer(_ key: String, in range: ClosedRange<Int> = 0...Int(Int32.max)) throws(Failure) -> Int {
        let number = try number(key)
        guard let integer = exactInteger(number), range.contains(integer) else {
            throw failure(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(JSONWriter.format(number))")
        }
        return integer
    }

    /// A string of at most `maximumLength` UTF-8 bytes.
    func string(_ key: String, maximumLength: Int = 2048) throws(Failure) -> String {
        guard case .string(let text) = try value(key) else { throw failure(key, "expected a string") }
        guard text.utf8.count <= maximumLength else { throw failure(key, "longer than \(maximumLength) bytes") }
        return text
    }

    func bool(_ key: String) throws(Failure) -> Bool {
        guard case .bool(let flag) = try value(key) else { throw failure(key, "expected true or false") }
        return flag
    }

    /// The array of `key`, of at most `maximumCount` values.
    func array(_ key: String, maximumCount: Int = Int.max) throws(Failure) -> [JSONValue] {
        guard case .array(let values) = try value(key) else { throw failure(key, "expected an array") }
        guard values.count <= maximumCount else { throw failure(key, "more than \(maximumCount) values") }
        return values
    }

    /// Each value of the array `key` as an object, read by `body`.
    func objects<Value>(_ key: String, _ body: (JSONMembers) throws(Failure) -> Value) throws(Failure) -> [Value] {
        let values = try array(key)
        var results: [Value] = []
        results.reserveCapacity(values.count)
        for (offset, value) in values.enumerated() {
            results.append(try body(JSONMembers(value, at: self.path().appending(key).appending(offset))))
        }
        return results
    }

    /// Exactly `count` finite numbers.
    func numbers(_ key: String, count: Int) throws(Failure) -> [Double] {
        let values = try array(key)
        var numbers: [Double] = []
        for value in values {
            guard case .number(let number) = value, number.isFinite else { break }
            numbers.append(number)
        }
        guard numbers.count == count, values.count == count else { throw failure(key, "expected \(count) finite numbers") }
        return numbers
    }

    /// `"vertical"` or `"horizontal"`.
    func axis(_ key: String) throws(Failure) -> Axis {
        guard let axis = Axis(rawValue: try string(key, maximumLength: 16)) else { throw failure(key, "expected \"vertical\" or \"horizontal\"") }
        return axis
    }

    /// `[width, height]`, neither negative.
    func size(_ key: String) throws(Failure) -> Size {
        let pair = try numbers(key, count: 2)
        guard pair[0] >= 0, pair[1] >= 0 else { throw failure(key, "a size cannot be negative") }
        return Size(width: pair[0], height: pair[1])
    }

    /// An element as `LayoutJSON` writes it: `{"kind", "section", ["item",] "frame", "zIndex"}`.
    func element(_ key: String) throws(Failure) -> LayoutElement {
        try JSONMembers(try value(key), at: self.path().appending(key)).element()
    }

    /// This object as an element.
    func element() throws(Failure) -> LayoutElement {
        guard let kind = LayoutElement.Kind(rawValue: try string("kind", maximumLength: 16)) else {
            throw failure("kind", "expected \"cell\", \"header\", \"footer\" or \"background\"")
        }
        let item: Int? = kind == .cell ? try integer("item", in: 0...Int.max >> 11) : nil
        if kind != .cell, object["item"] != nil { throw failure("item", "only cells have an item") }
        let frame = try numbers("frame", count: 4)
        return LayoutElement(
            kind: kind, section: try integer("section"), item: item,
            frame: Rect(x: frame[0], y: frame[1], width: frame[2], height: frame[3]), zIndex: try integer("zIndex", in: -1...2))
    }
}

/// Parses a body as JSON, bounded by its length (already checked) and
/// the parser's depth limit.
enum BodyJSON {
    static func parse(_ body: [UInt8], url: URL) throws(TileClientError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw TileClientError(url: url, reason: .invalidJSON(error.description))
        }
    }
}
