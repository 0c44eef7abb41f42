import Foundation
import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The specs of an NDJSON file, one per line, read line by line as the store
/// takes them: the file is never all in memory. Blank lines are skipped. A
/// line that is not valid UTF-8 or JSON, is not a valid spec, has no
/// `"name"`, or scrolls along the other axis is a ``Failure`` naming its
/// line; the specs end there unless `keepGoing` is set.
///
/// One thread reads it (the store's batch pulls specs from the thread that
/// called it); the progress callback only reads ``bytesRead``.
final class SpecLines: Sequence, IteratorProtocol, @unchecked Sendable {
    /// A line that gave no spec.
    struct Failure {
        var line: Int
        var message: String
    }

    let path: String
    private let file: UnsafeMutablePointer<FILE>
    private let axis: Axis
    private let keepGoing: Bool
    private let baseDirectory: String
    /// The file's size, when it is a regular file: progress is the share read.
    let totalBytes: Int?
    private(set) var bytesRead = 0
    private var lineNumber = 0
    /// The line of each spec handed out, by its index among them.
    private(set) var specLines: [Int] = []
    private(set) var failures: [Failure] = []
    /// Reading ended at a failure.
    private(set) var stopped = false
    private var lineBuffer: UnsafeMutablePointer<CChar>?
    private var lineCapacity = 0

    /// Opens `path`; specs must scroll along `axis` (the extents given).
    init(path: String, axis: Axis, keepGoing: Bool) throws {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw CommandError("\(path.quotedPathForMessage) is a directory, not a file of specs")
        }
        guard let file = fopen(path, "rb") else {
            throw CommandError("cannot read \(path.quotedPathForMessage): \(String(cString: strerror(errno)))")
        }
        self.path = path
        self.file = file
        self.axis = axis
        self.keepGoing = keepGoing
        baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        totalBytes = info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : nil
    }

    deinit {
        free(lineBuffer)
        fclose(file)
    }

    func next() -> Spec? {
        while !stopped, let line = readLine() {
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { continue }
            do {
                let spec = try parse(line)
                specLines.append(lineNumber)
                return spec
            } catch let error as CommandError {
                fail(line: lineNumber, error.description)
            } catch {
                fail(line: lineNumber, "\(error)")
            }
        }
        return nil
    }

    /// Records a failure on `line`; reading stops there unless going on.
    func fail(line: Int, _ message: String) {
        failures.append(Failure(line: line, message: message))
        if !keepGoing { stopped = true }
    }

    /// `FILE:LINE: message`.
    func located(line: Int, _ message: String) -> String {
        "\(path):\(line): \(message)"
    }

    /// The line of the spec the store numbered `index`.
    func line(ofSpec index: Int) -> Int {
        specLines.indices.contains(index) ? specLines[index] : 0
    }

    private func parse(_ bytes: [UInt8]) throws -> Spec {
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw CommandError("the line is not valid UTF-8")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw CommandError("not valid JSON: column \(error.column): \(error.reason)")
        }
        let spec: Spec
        do {
            spec = try Spec(json: json, baseDirectory: baseDirectory)
        } catch let error as SpecError {
            throw CommandError(error.description)
        }
        guard let name = spec.name, !name.isEmpty else {
            throw CommandError("the spec has no \"name\": with --specs each spec is stored under its own name")
        }
        guard spec.axis == axis else {
            throw CommandError(axis == .vertical
                ? "spec \"\(name)\" scrolls horizontally, and --width was given: a file of specs takes one axis"
                : "spec \"\(name)\" scrolls vertically, and --height was given: a file of specs takes one axis")
        }
        return spec
    }

    /// The next line without its newline, or nil at the end of the file.
    private func readLine() -> [UInt8]? {
        let length = getline(&lineBuffer, &lineCapacity, file)
        guard length >= 0, let buffer = lineBuffer else {
            if ferror(file) != 0 {
                fail(line: lineNumber + 1, "cannot read the line: \(String(cString: strerror(errno)))")
                stopped = true
            }
            return nil
        }
        bytesRead += length
        var count = length
        if count > 0, buffer[count - 1] == 0x0A { count -= 1 }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }
}
