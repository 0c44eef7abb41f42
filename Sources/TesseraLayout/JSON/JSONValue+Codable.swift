/// `JSONValue` through Swift's coders, so that specs travel inside other
/// Codable types (a request body, a message) without losing precision.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else if let members = try? container.decode([String: JSONValue].self) {
            var object = JSONObject()
            // Coders do not keep key order; sorted keys keep the result deterministic.
            for key in members.keys.sorted() { object[key] = members[key] }
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let object):
            var members: [String: JSONValue] = [:]
            for (key, value) in zip(object.keys, object.values) { members[key] = value }
            try container.encode(members)
        }
    }
}

/// A spec through Swift's coders: decoding validates it exactly as
/// ``Spec/init(json:registry:baseDirectory:)`` does, with the standard kinds
/// (pass a registry in the decoder's `userInfo` under
/// ``LayoutRegistry/codingKey`` for kinds of your own); errors are
/// ``SpecError``s naming the JSON path.
extension Spec: Codable {
    public init(from decoder: any Decoder) throws {
        let registry = decoder.userInfo[LayoutRegistry.codingKey] as? LayoutRegistry ?? .standard
        try self.init(json: try JSONValue(from: decoder), registry: registry)
    }

    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}

extension LayoutRegistry {
    /// The `userInfo` key under which ``Spec``'s decoder looks for a registry.
    public static let codingKey = CodingUserInfoKey(rawValue: "tessera.layoutRegistry")!
}
