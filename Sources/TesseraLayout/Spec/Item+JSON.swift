extension Item {
    /// Reads an item object. Only types are checked here; the layout kind
    /// that reads a field checks its range, so unread fields never fail.
    public init(json: JSONValue, path: JSONPath) throws {
        try self.init(json: json) { path }
    }

    /// The same for the item at `location`, whose path is made only for an
    /// error (a file of many items reads each without building its path).
    package init(json: JSONValue, location: ItemLocation) throws {
        try self.init(json: json) { location.path }
    }

    private init(json: JSONValue, path: () -> JSONPath) throws {
        guard case .object(let object) = json else {
            throw path().error("an item must be an object, got \(json.typeName)")
        }
        self.init()
        for (key, value) in zip(object.keys, object.values) {
            guard let field = Field(rawValue: key), value != .null else { continue }
            do {
                try assign(field, from: value)
            } catch let reason as MalformedField {
                var problems = malformed ?? [:]
                problems[field] = MalformedValue(value: value, reason: reason.reason)
                malformed = problems
            }
        }
    }

    private struct MalformedField: Error {
        var reason: String
    }

    private mutating func assign(_ field: Field, from value: JSONValue) throws {
        switch field {
        case .size:
            guard case .array(let pair) = value, pair.count == 2,
                  case .number(let width) = pair[0], case .number(let height) = pair[1]
            else { throw MalformedField(reason: "must be an array of two numbers [width, height]") }
            size = Size(width: width, height: height)
        case .fraction: fraction = try Self.integer(value)
        case .scale: scale = try Self.integer(value)
        case .columns: columns = try Self.integer(value)
        case .rows: rows = try Self.integer(value)
        case .aspectRatio: aspectRatio = try Self.number(value)
        case .length: length = try Self.number(value)
        case .canBeBig:
            guard case .bool(let flag) = value else { throw MalformedField(reason: "must be true or false, got \(value.typeName)") }
            canBeBig = flag
        }
    }

    private static func number(_ value: JSONValue) throws -> Double {
        guard case .number(let number) = value else { throw MalformedField(reason: "must be a number, got \(value.typeName)") }
        return number
    }

    private static func integer(_ value: JSONValue) throws -> Int {
        let number = try number(value)
        guard let integer = exactInteger(number) else {
            throw MalformedField(reason: "must be an integer, got \(JSONWriter.format(number))")
        }
        return integer
    }

    /// The JSON encoding of this item, fields in a fixed order.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let size { object["size"] = .array([.number(size.width), .number(size.height)]) }
        if let fraction { object["fraction"] = .number(Double(fraction)) }
        if let aspectRatio { object["aspectRatio"] = .number(aspectRatio) }
        if let scale { object["scale"] = .number(Double(scale)) }
        if let columns { object["columns"] = .number(Double(columns)) }
        if let rows { object["rows"] = .number(Double(rows)) }
        if let canBeBig { object["canBeBig"] = .bool(canBeBig) }
        if let length { object["length"] = .number(length) }
        for field in Field.allCases {
            if let problem = malformed?[field] { object[field.rawValue] = problem.value }
        }
        return .object(object)
    }
}

/// The integer a double holds exactly, or nil for fractions and values
/// outside the range that converts without loss.
package func exactInteger(_ number: Double) -> Int? {
    guard number.isFinite, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else { return nil }
    return Int(number)
}
