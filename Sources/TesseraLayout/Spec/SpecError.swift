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

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// An error at this path.
    public func error(_ reason: String) -> SpecError {
        SpecError(path: description, reason: reason)
    }
}

extension String {
    /// This text in double quotes for a message, escaped as in JSON: its
    /// first 60 characters, and `…` when there are more, so that a value from
    /// the input (a 1 MB kind, a name with a newline) keeps an error to one
    /// short line.
    package var quotedForMessage: String {
        let limit = 60
        guard count > limit else { return Self.escapingLineBreaks(JSONWriter.quote(self)) }
        return Self.escapingLineBreaks(JSONWriter.quote(String(prefix(limit)))).dropLast() + "…\""
    }

    /// JSON text with the characters JSON lets through that still break or
    /// garble a line (DEL, C1 controls, U+2028, U+2029) escaped as `\uXXXX`.
    private static func escapingLineBreaks(_ quoted: String) -> String {
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
