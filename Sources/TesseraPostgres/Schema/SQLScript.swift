/// A script's statements, split at the semicolons that end them: the driver
/// sends one statement at a time (the extended protocol takes no more). A
/// semicolon inside a comment, a quoted string or name, or a dollar-quoted
/// body (`$$ … $$`, `$tag$ … $tag$`) ends nothing.
enum SQLScript {
    static func statements(_ script: String) -> [String] {
        let bytes = Array(script.utf8)
        var statements: [String] = []
        var start = 0
        var index = 0
        func flush(upTo end: Int) {
            let text = String(decoding: bytes[start..<end], as: UTF8.self)
            if !isBlank(text) { statements.append(text.trimmingWhitespace) }
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 2
            case UInt8(ascii: "'"), UInt8(ascii: "\""):
                let quote = bytes[index]
                index += 1
                // A doubled quote is one quote inside the string.
                while index < bytes.count {
                    if bytes[index] == quote {
                        if index + 1 < bytes.count && bytes[index + 1] == quote { index += 2; continue }
                        break
                    }
                    index += 1
                }
                index += 1
            case UInt8(ascii: "$"):
                if let tagEnd = dollarTagEnd(bytes, from: index) {
                    let tag = bytes[index...tagEnd]
                    index = tagEnd + 1
                    while index < bytes.count && !bytes[index...].starts(with: tag) { index += 1 }
                    index += tag.count
                } else {
                    index += 1
                }
            case UInt8(ascii: ";"):
                flush(upTo: index)
                index += 1
                start = index
            default:
                index += 1
            }
        }
        flush(upTo: min(index, bytes.count))
        return statements
    }

    /// The index of the `$` closing a dollar-quote tag that starts at `start`
    /// (`$$` or `$name$`), or nil when `$` starts no tag there (`$1`).
    private static func dollarTagEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "$") { return index }
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
            let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard isLetter || (isDigit && index > start + 1) else { return nil }
            index += 1
        }
        return nil
    }

    /// Whether `text` holds nothing but whitespace and comments.
    private static func isBlank(_ text: String) -> Bool {
        text.split(separator: "\n").allSatisfy { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            return trimmed.isEmpty || trimmed.hasPrefix("--")
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
