/// A parsed JSON document, kept close to the text so that the spec reader can
/// report precise paths and tell integers from fractions.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON object that keeps its keys in document order.
///
/// Objects in specs are small, so lookup is a linear scan; keeping the order
/// makes canonical output and error messages deterministic.
public struct JSONObject: Sendable, Hashable {
    /// The keys, in document order.
    public private(set) var keys: [String] = []
    /// The values, in the order of ``keys``.
    public private(set) var values: [JSONValue] = []

    /// An empty object.
    public init() {}

    /// An object of `pairs`, in order; a repeated key keeps its last value.
    public init(_ pairs: KeyValuePairs<String, JSONValue>) {
        for (key, value) in pairs { self[key] = value }
    }

    /// The number of members.
    public var count: Int { keys.count }

    /// The value of `key`; setting nil removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = keys.firstIndex(of: key) else { return nil }
            return values[index]
        }
        set {
            if let index = keys.firstIndex(of: key) {
                if let newValue {
                    values[index] = newValue
                } else {
                    keys.remove(at: index)
                    values.remove(at: index)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// Appends a key known not to be present yet (the parser checks duplicates).
    mutating func appendUnchecked(_ key: String, _ value: JSONValue) {
        keys.append(key)
        values.append(value)
    }
}
