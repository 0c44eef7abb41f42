/// A spec that breaks a rule of the format, with the JSON path of the value at
/// fault: `sections[2].items[17].columns: 4 columns requested, the matrix has 3`.
public struct SpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value, such as `sections[2].layout.columns`.
    public var path: String
    /// The rule that was broken, in words.
    public var reason: String

    /// An error at `path` (such as `sections[2].layout.columns`, empty for the whole spec).
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        path.isEmpty ? reason : "\(path): \(reason)"
    }
}

/// Builds JSON paths lazily: most values are valid, so the text of a path is
/// only made when an error needs it.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    private var components: [Component]

    enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The path of the whole document.
    public static let root = JSONPath(components: [])

    /// This path followed by an object key.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// This path followed by an array index.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// The most characters a key keeps in the text of a path, and the
    /// longest path text kept whole.
    static let keyLimit = 40
    static let lengthLimit = 120

    /// The path as text (`sections[2].items[17].columns`, an empty key as
    /// `[""]`), short enough for one line of an error: a key is escaped as in
    /// JSON and cut with `…` past 40 escaped characters, and a path longer than
    /// 120 characters keeps its first two and last three components around
    /// `…` (`sections[0].….a.b[3]`).
    public var description: String {
        let parts = components.map { component -> String in
            switch component {
            case .key(let key) where key.isEmpty:
                // Written as `.` and nothing, an empty key would vanish from the path.
                return #"[""]"#
            case .key(let key):
                return "." + key.escapedForMessage(limit: Self.keyLimit)
            case .index(let index):
                return "[\(index)]"
            }
        }
        var kept = parts
        if parts.reduce(0, { $0 + $1.count }) > Self.lengthLimit, parts.count > 5 {
            kept = Array(parts.prefix(2)) + [".…"] + Array(parts.suffix(3))
        }
        let text = kept.joined()
        return text.hasPrefix(".") ? String(text.dropFirst()) : text
    }

    /// An error at this path.
    public func error(_ reason: String) -> SpecError {
        SpecError(path: description, reason: reason)
    }
}

extension String {
    /// A file path in single quotes for a message: whole when it has at most
    /// 100 characters, else its first 30 and last 69 around `…`, so that a
    /// long path keeps an error to one short line (its file name stays).
    package var quotedPathForMessage: String {
        let limit = 100
        let text = Self.escapingLineBreaks(JSONWriter.quote(self)).dropFirst().dropLast()
        guard text.count > limit else { return "'\(text)'" }
        return "'\(text.prefix(30))…\(text.suffix(limit - 31))'"
    }

    /// This text in double quotes for a message, escaped as in JSON: at
    /// most 60 characters of escaped text (no escape cut in two), and `…`
    /// when there is more, so that a value from the input (a 1 MB kind, a
    /// name with a newline, a run of control characters, each escaped to
    /// six) keeps an error to one short line.
    package var quotedForMessage: String {
        "\"" + escapedForMessage(limit: 60) + "\""
    }

    /// This text escaped as in JSON, without quotes: at most `limit`
    /// characters of escaped text (no escape cut in two), then `…` when
    /// there is more.
    fileprivate func escapedForMessage(limit: Int) -> String {
        let whole = Self.escapingLineBreaks(JSONWriter.quote(self)).dropFirst().dropLast()
        guard whole.count > limit else { return String(whole) }
        var text = ""
        var length = 0
        for character in self {
            let escaped = Self.escapingLineBreaks(JSONWriter.quote(String(character))).dropFirst().dropLast()
            guard length + escaped.count <= limit else { break }
            text += escaped
            length += escaped.count
        }
        return text + "…"
    }

    /// JSON text with the characters JSON lets through that still break or
    /// garble a line (DEL, C1 controls, U+2028, U+2029) escaped as `\uXXXX`.
    fileprivate static func escapingLineBreaks(_ quoted: String) -> String {
        guard quoted.unicodeScalars.contains(where: \.breaksLines) else { return quoted }
        var text = ""
        for scalar in quoted.unicodeScalars {
            guard scalar.breaksLines else {
                text.unicodeScalars.append(scalar)
                continue
            }
            text += "\\u" + scalar.hexDigits
        }
        return text
    }
}
