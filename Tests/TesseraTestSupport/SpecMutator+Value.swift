import TesseraLayout

/// Mutations of a parsed spec or item: one node of the JSON value changed.
extension SpecMutator {
    /// A step from a JSON value to one of its members or elements.
    enum Step: CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): ".\(key)"
            case .index(let index): "[\(index)]"
            }
        }
    }

    /// Values of every type, some of them valid somewhere in a spec.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-1), .number(1), .number(3), .number(2.5), .string(""),
        .string("flow"), .array([]), .array([.number(1), .number(2)]), .object(JSONObject()), .object(JSONObject(["size": .number(44)])),
    ]

    /// Numbers that break one rule or another, or sit on a limit.
    static let numbers: [Double] = [
        -1, -0.0, 0, 0.5, 1, 2.5, 1e-300, 5e-324, 4095, 4096, 4097, 65536, 65537, 1e6, 1e9, 1e9 + 1, 1e15 + 0.5,
        9_007_199_254_740_993, 1e300, 1.7976931348623157e308, -1e300, .infinity, -.infinity,
    ]

    /// Strings that are not what any field takes: control characters,
    /// line separators, a long text, emoji, a kind in other case.
    static let strings = [
        "", "unknownKind", "Flow", "GRID", "a\u{0}b", "two\nlines", "tab\there", "\u{1B}[31m", "\u{85}\u{2028}\u{2029}",
        String(repeating: "k", count: 500), "🧱🧱", "vertical", "horizontal", "dense", "justified", "\u{7F}",
    ]

    static let kinds = ["flow", "grid", "scaledGrid", "mozaik", "pattern", "staggered", "mosaic"]

    /// Applies one mutation to a node of `value`; returns what it did.
    static func mutateValue(_ value: inout JSONValue, random: inout SeededRandom) -> String {
        var paths: [[Step]] = []
        collectPaths(value, prefix: [], into: &paths)
        let path = paths[random.int(0...paths.count - 1)]
        let shown = path.isEmpty ? "the root" : path.map(\.description).joined()
        let node = self.node(value, at: path) ?? .null
        var replacement: JSONValue
        var what: String
        switch (random.int(0...9), node) {
        case (0...2, .number):
            let number = numbers[random.int(0...numbers.count - 1)]
            replacement = .number(number)
            what = "set to \(number)"
        case (3, .object(var object)) where object.count > 0:
            let key = object.keys[random.int(0...object.count - 1)]
            object[key] = nil
            replacement = .object(object)
            what = "removed \(key)"
        case (4, .object(var object)):
            let key = random.chance(0.5) && object.count > 0 ? object.keys[random.int(0...object.count - 1)] : "unknownField"
            object[MutantWriter.duplicateMarker + key] = replacements[random.int(0...replacements.count - 1)]
            replacement = .object(object)
            what = "added a duplicate of key \(key)"
        case (5, .object(var object)):
            let kind = random.chance(0.5) ? kinds[random.int(0...kinds.count - 1)] : strings[random.int(0...strings.count - 1)]
            object["kind"] = .string(kind)
            replacement = .object(object)
            what = "set kind to \(kind.debugDescription)"
        case (6, .array(var elements)) where !elements.isEmpty:
            let index = random.int(0...elements.count - 1)
            if random.chance(0.5) {
                elements.remove(at: index)
                what = "removed element \(index)"
            } else {
                elements.insert(contentsOf: Array(repeating: elements[index], count: random.int(1...20)), at: index)
                what = "repeated element \(index)"
            }
            replacement = .array(elements)
        case (7, _):
            let string = strings[random.int(0...strings.count - 1)]
            replacement = .string(string)
            what = "set to \(string.debugDescription)"
        case (8, _):
            // Another node of the spec in this place: a section as an item, an item as insets…
            let other = paths[random.int(0...paths.count - 1)]
            replacement = self.node(value, at: other) ?? .null
            what = "replaced with the value at \(other.map(\.description).joined())"
        default:
            replacement = replacements[random.int(0...replacements.count - 1)]
            what = "set to \(MutantWriter.text(replacement))"
        }
        value = replacing(value, at: path[...], with: replacement)
        return "\(shown): \(what)"
    }

    private static func collectPaths(_ value: JSONValue, prefix: [Step], into paths: inout [[Step]]) {
        paths.append(prefix)
        switch value {
        case .object(let object):
            for (key, member) in zip(object.keys, object.values) { collectPaths(member, prefix: prefix + [.key(key)], into: &paths) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { collectPaths(element, prefix: prefix + [.index(index)], into: &paths) }
        default:
            break
        }
    }

    private static func node(_ value: JSONValue, at path: [Step]) -> JSONValue? {
        var current = value
        for step in path {
            switch (step, current) {
            case (.key(let key), .object(let object)): guard let member = object[key] else { return nil }; current = member
            case (.index(let index), .array(let elements)) where elements.indices.contains(index): current = elements[index]
            default: return nil
            }
        }
        return current
    }

    private static func replacing(_ value: JSONValue, at path: ArraySlice<Step>, with replacement: JSONValue) -> JSONValue {
        guard let step = path.first else { return replacement }
        switch (step, value) {
        case (.key(let key), .object(var object)):
            object[key] = replacing(object[key] ?? .null, at: path.dropFirst(), with: replacement)
            return .object(object)
        case (.index(let index), .array(var elements)) where elements.indices.contains(index):
            elements[index] = replacing(elements[index], at: path.dropFirst(), with: replacement)
            return .array(elements)
        default:
            return value
        }
    }
}

/// Writes a mutated JSON value as text: infinities as `1e999` (which reads
/// back as infinity), and a member whose key starts with
/// ``duplicateMarker`` under the rest of its key, a duplicate.
enum MutantWriter {
    static let duplicateMarker = "\u{0}duplicate:"

    static func text(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    static func bytes(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return bytes
    }

    private static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += "null".utf8
        case .bool(let flag): bytes += (flag ? "true" : "false").utf8
        case .number(let number):
            if number.isInfinite {
                bytes += (number < 0 ? "-1e999" : "1e999").utf8
            } else {
                JSONWriter.append(number, to: &bytes)
            }
        case .string(let text): bytes += JSONWriter.quote(text).utf8
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes += ", ".utf8 }
                write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            for (index, (key, member)) in zip(object.keys, object.values).enumerated() {
                if index > 0 { bytes += ", ".utf8 }
                bytes += JSONWriter.quote(key.hasPrefix(duplicateMarker) ? String(key.dropFirst(duplicateMarker.count)) : key).utf8
                bytes += ": ".utf8
                write(member, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
