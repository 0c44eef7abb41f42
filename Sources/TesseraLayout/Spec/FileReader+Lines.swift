/// A line longer than the rules allow: refused before it is held whole.
package struct LineTooLong: Error, Sendable {
    /// The line's number, from 1.
    package var line: Int
    /// The longest line the rules allow, in bytes.
    package var limit: Int
}

/// The lines of a ``FileReader``, without their newline, one at a time: a
/// line grows past ``FileRules/maximumLineBytes`` by at most one chunk
/// before it is refused with ``LineTooLong``.
package final class LineReader {
    package let file: FileReader
    /// The number of the line last handed out, from 1.
    package private(set) var lineNumber = 0
    private let limit: Int
    /// Bytes read and not yet handed out, after the last newline.
    private var chunk: ArraySlice<UInt8> = []
    /// The start of a line that spans chunks.
    private var line: [UInt8] = []

    /// Lines of the file at `path`, read under `rules` (see ``FileReader``).
    package init(path: String, rules: FileRules, errorPath: String) throws {
        file = try FileReader(path: path, rules: rules, errorPath: errorPath)
        limit = rules.maximumLineBytes ?? Int.max
    }

    /// Calls `body` with the next line and returns what it returns, or nil
    /// at the end of the file. The bytes are valid only inside `body`.
    package func next<T>(_ body: (ArraySlice<UInt8>) throws -> T) throws -> T? {
        while true {
            if let newline = chunk.firstIndex(of: 0x0A) {
                lineNumber += 1
                let rest = chunk[(newline + 1)...]
                if line.isEmpty {
                    let bytes = chunk[..<newline]
                    chunk = rest
                    guard bytes.count <= limit else { throw LineTooLong(line: lineNumber, limit: limit) }
                    return try body(bytes)
                }
                line.append(contentsOf: chunk[..<newline])
                chunk = rest
                defer { line.removeAll(keepingCapacity: true) }
                guard line.count <= limit else { throw LineTooLong(line: lineNumber, limit: limit) }
                return try body(line[...])
            }
            line.append(contentsOf: chunk)
            // The chunk's buffer is released before the file reads into it again.
            chunk = []
            guard line.count <= limit else { throw LineTooLong(line: lineNumber + 1, limit: limit) }
            guard let next = try file.nextChunk() else {
                guard !line.isEmpty else { return nil }
                lineNumber += 1
                defer { line.removeAll() }
                return try body(line[...])
            }
            chunk = next
        }
    }
}
