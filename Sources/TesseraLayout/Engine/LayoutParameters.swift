/// Reads a layout object's parameters with validation; every error names the
/// parameter's JSON path and the rule broken.
public struct LayoutParameters: Sendable {
    /// The layout object as written, including `kind`.
    public let object: JSONObject
    /// The path of the layout object, such as `sections[2].layout`.
    public let path: JSONPath

    /// Reads `object`, the layout object at `path`; errors name paths below it.
    public init(object: JSONObject, path: JSONPath) {
        self.object = object
        self.path = path
    }

    /// The parameters without `kind` and without null values.
    public var withoutKind: JSONObject {
        var copy = JSONObject()
        for (key, value) in zip(object.keys, object.values) where key != "kind" && value != .null {
            copy[key] = value
        }
        return copy
    }

    /// What a number must be.
    public enum NumberRule: Sendable {
        case any, nonNegative, positive, atLeastOne
    }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    /// The number at `key`, or nil when it is absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not a number or breaks `rule`.
    public func number(_ key: String, rule: NumberRule = .nonNegative) throws -> Double? {
        guard let value = value(key) else { return nil }
        guard case .number(let number) = value else {
            throw path.appending(key).error("must be a number, got \(value.typeName)")
        }
        try Self.check(number, rule: rule, at: path.appending(key))
        return number
    }

    /// The number at `key`, or `defaultValue` when it is absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not a number or breaks `rule`.
    public func number(_ key: String, default defaultValue: Double, rule: NumberRule = .nonNegative) throws -> Double {
        try number(key, rule: rule) ?? defaultValue
    }

    /// The number at `key`, which must be present.
    /// - Throws: ``SpecError`` at `path.key` when it is absent, not a number, or breaks `rule`.
    public func requiredNumber(_ key: String, rule: NumberRule = .nonNegative) throws -> Double {
        guard let number = try number(key, rule: rule) else { throw path.appending(key).error("is required") }
        return number
    }

    /// The integer at `key` (a number without a fraction), at least `minimum`, or nil when absent or null.
    /// - Throws: ``SpecError`` at `path.key` otherwise.
    public func integer(_ key: String, minimum: Int = 1) throws -> Int? {
        guard let number = try number(key, rule: .any) else { return nil }
        guard let integer = exactInteger(number) else {
            throw path.appending(key).error("must be an integer, got \(JSONWriter.format(number))")
        }
        if integer < minimum { throw path.appending(key).error("must be at least \(minimum), got \(integer)") }
        return integer
    }

    /// The integer at `key`, at least `minimum`, which must be present.
    /// - Throws: ``SpecError`` at `path.key` when it is absent or not such an integer.
    public func requiredInteger(_ key: String, minimum: Int = 1) throws -> Int {
        guard let integer = try integer(key, minimum: minimum) else { throw path.appending(key).error("is required") }
        return integer
    }

    /// The string at `key`, one of `allowed`, or `defaultValue` when absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not a string or not allowed.
    public func string(_ key: String, oneOf allowed: [String], default defaultValue: String) throws -> String {
        try string(key, oneOf: allowed) ?? defaultValue
    }

    /// The string at `key`, one of `allowed`, or nil when absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not a string or not allowed.
    package func string(_ key: String, oneOf allowed: [String]) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw path.appending(key).error("must be a string, got \(value.typeName)")
        }
        guard allowed.contains(text) else {
            throw path.appending(key).error("must be one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \(text.quotedForMessage)")
        }
        return text
    }

    /// The boolean at `key`, or `defaultValue` when absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not true or false.
    public func bool(_ key: String, default defaultValue: Bool) throws -> Bool {
        try bool(key) ?? defaultValue
    }

    /// The boolean at `key`, or nil when absent or null.
    /// - Throws: ``SpecError`` at `path.key` when it is not true or false.
    package func bool(_ key: String) throws -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let flag) = value else { throw path.appending(key).error("must be true or false, got \(value.typeName)") }
        return flag
    }

    /// A [width, height] pair of non-negative numbers.
    public func size(_ key: String) throws -> Size? {
        guard let value = value(key) else { return nil }
        guard case .array(let pair) = value, pair.count == 2,
              case .number(let width) = pair[0], case .number(let height) = pair[1]
        else { throw path.appending(key).error("must be an array of two numbers [width, height]") }
        try Self.check(width, rule: .nonNegative, at: path.appending(key).appending(0))
        try Self.check(height, rule: .nonNegative, at: path.appending(key).appending(1))
        return Size(width: width, height: height)
    }

    /// Checks `itemSpacing` and `lineSpacing` of the layout object at `path`,
    /// which flow, grid, staggered, mosaic and mozaik share: finite, not
    /// negative.
    static func checkSpacings(item: Double, line: Double, at path: JSONPath) throws {
        try check(item, rule: .nonNegative, at: path.appending("itemSpacing"))
        try check(line, rule: .nonNegative, at: path.appending("lineSpacing"))
    }

    /// Checks a number against a rule, for values that are not parameters
    /// of this object (array elements, nested objects).
    public static func check(_ number: Double, rule: NumberRule, at path: JSONPath) throws {
        guard number.isFinite else { throw path.error("must be a finite number") }
        switch rule {
        case .any: break
        case .nonNegative where number < 0: throw path.error("must not be negative, got \(JSONWriter.format(number))")
        case .positive where number <= 0: throw path.error("must be above 0, got \(JSONWriter.format(number))")
        case .atLeastOne where number < 1: throw path.error("must be at least 1, got \(JSONWriter.format(number))")
        default: break
        }
    }
}
