import TesseraLayout

/// A `Codable` encoder to compact JSON, for placer states: Foundation's
/// `JSONEncoder` took about a third of a batch precompute of small feeds
/// (one state per section and width), most of it in machinery a few
/// numbers do not need. What it writes, `JSONDecoder` reads back to the
/// same values: numbers in their shortest round-trip form, strings escaped
/// as JSON, members in the order they were encoded.
enum CompactJSONEncoder {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = Node()
        try value.encode(to: Encoding(node: root, codingPath: []))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        root.write(to: &bytes)
        return bytes
    }

    /// What one value has become so far: a container fills in as its
    /// owner encodes into it.
    final class Node {
        enum Value {
            case unset
            case text([UInt8])
            case object([(key: String, node: Node)])
            case array([Node])
        }

        var value = Value.unset

        init() {}

        /// A primitive's node: its JSON text.
        init(text: [UInt8]) {
            value = .text(text)
        }

        func write(to bytes: inout [UInt8]) {
            switch value {
            case .unset:
                bytes += "{}".utf8  // an encoder that asked for nothing
            case .text(let text):
                bytes += text
            case .object(let members):
                bytes.append(UInt8(ascii: "{"))
                for (index, member) in members.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes += JSONWriter.quote(member.key).utf8
                    bytes.append(UInt8(ascii: ":"))
                    member.node.write(to: &bytes)
                }
                bytes.append(UInt8(ascii: "}"))
            case .array(let elements):
                bytes.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    element.write(to: &bytes)
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }

        /// `value`'s node: a primitive as its text, anything else encoded
        /// into a node of its own.
        static func of(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Node {
            switch value {
            case let number as Double: return Node(text: try text(of: number, codingPath: codingPath))
            case let number as Float: return Node(text: try text(of: Double(number), codingPath: codingPath))
            case let string as String: return Node(text: text(of: string))
            case let flag as Bool: return Node(text: text(of: flag))
            case let integer as Int: return Node(text: text(of: integer))
            case let integer as any BinaryInteger: return Node(text: Array(String(describing: integer).utf8))
            default:
                let node = Node()
                try value.encode(to: Encoding(node: node, codingPath: codingPath))
                return node
            }
        }

        static func text(of string: String) -> [UInt8] {
            Array(JSONWriter.quote(string).utf8)
        }

        static func text(of flag: Bool) -> [UInt8] {
            Array((flag ? "true" : "false").utf8)
        }

        static func text(of integer: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            JSONWriter.append(integer, to: &bytes)
            return bytes
        }

        static func text(of number: Double, codingPath: [any CodingKey]) throws -> [UInt8] {
            guard number.isFinite else {
                throw EncodingError.invalidValue(number, .init(codingPath: codingPath, debugDescription: "\(number) is not a JSON number"))
            }
            var bytes: [UInt8] = []
            JSONWriter.append(number, to: &bytes)
            return bytes
        }

        static let nullText = Array("null".utf8)
    }

    struct Encoding: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .object = node.value {} else { node.value = .object([]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.value {} else { node.value = .array([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func add(_ key: String, _ member: Node) {
            guard case .object(var members) = node.value else { return }
            node.value = .unset  // keeps `members` unique while it grows
            members.removeAll { $0.key == key }
            members.append((key, member))
            node.value = .object(members)
        }

        private func add(_ key: Key, text: [UInt8]) {
            add(key.stringValue, Node(text: text))
        }

        mutating func encodeNil(forKey key: Key) throws { add(key, text: Node.nullText) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            add(key.stringValue, try Node.of(value, codingPath: codingPath + [key]))
        }

        mutating func encode(_ value: Double, forKey key: Key) throws { add(key, text: try Node.text(of: value, codingPath: codingPath + [key])) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key, text: Node.text(of: value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key, text: Node.text(of: value)) }
        mutating func encode(_ value: String, forKey key: Key) throws { add(key, text: Node.text(of: value)) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            superEncoder(forKey: key).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            superEncoder(forKey: key).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let member = Node()
            add("super", member)
            return Encoding(node: member, codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let member = Node()
            add(key.stringValue, member)
            return Encoding(node: member, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            guard case .array(let elements) = node.value else { return 0 }
            return elements.count
        }

        private func add(_ element: Node) {
            guard case .array(var elements) = node.value else { return }
            node.value = .unset
            elements.append(element)
            node.value = .array(elements)
        }

        mutating func encodeNil() throws { add(Node(text: Node.nullText)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            add(try Node.of(value, codingPath: codingPath))
        }

        mutating func encode(_ value: Double) throws {
            add(Node(text: try Node.text(of: value, codingPath: codingPath)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            superEncoder().container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            superEncoder().unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let element = Node()
            add(element)
            return Encoding(node: element, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.value = .text(Node.nullText) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.value = try Node.of(value, codingPath: codingPath).value
        }
    }
}
