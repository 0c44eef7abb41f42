import Foundation
import Synchronization
import TesseraCommandSupport
import TesseraLayout

/// The specs of an NDJSON file, one per line, read line by line as the store
/// takes them: the file is never all in memory. Blank lines are skipped. A
/// line that is not valid UTF-8 or JSON, is not a valid spec, has no
/// `"name"`, or scrolls along the other axis is a ``Failure`` naming its
/// line; the specs end there unless `keepGoing` is set.
///
/// The store's batch takes it over and reads it, one job at a time, on its
/// own threads; the command reads ``failures`` and ``line(ofSpec:)`` after
/// the batch returned. While the batch runs, other threads read only
/// ``bytesRead`` (the progress callback), an atomic.
final class SpecLines: Sequence, IteratorProtocol, @unchecked Sendable {
    // Unchecked: every other property is used by one thread at a time, as
    // said above, and the batch's return orders the command's reads after
    // the batch's writes.
    /// A line that gave no spec.
    struct Failure {
        var line: Int
        var message: String
    }

    let path: String
    private let lines: LineReader
    private let axis: Axis
    private let keepGoing: Bool
    private let baseDirectory: String
    /// The file's size, when it is a regular file: progress is the share read.
    var totalBytes: Int? { lines.file.size }
    var bytesRead: Int { bytesReadSoFar.load(ordering: .relaxed) }
    /// ``bytesRead`` as of the last line read, for other threads to read.
    private let bytesReadSoFar = Atomic<Int>(0)
    /// The line of each spec handed out, by its index among them.
    private(set) var specLines: [Int] = []
    private(set) var failures: [Failure] = []
    /// Reading ended at a failure.
    private(set) var stopped = false

    /// Opens `path` (`-`: standard input) under the rules of files of specs
    /// (``FileRules/specLines``); specs must scroll along `axis` (the extents given).
    init(path: String, axis: Axis, keepGoing: Bool) throws {
        do {
            lines = try LineReader(path: path, rules: FileRules.specLines.readingStandardInput, errorPath: "")
        } catch let error as SpecError {
            throw CommandError(error.reason)
        }
        self.path = path
        self.axis = axis
        self.keepGoing = keepGoing
        // For `-`, the current folder.
        baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    func next() -> Spec? {
        defer { bytesReadSoFar.store(lines.file.bytesRead, ordering: .relaxed) }
        while !stopped {
            do {
                let read = try lines.next { line -> Spec? in
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
                    return try parse(Array(line))
                }
                // The end of the file.
                guard let read else { return nil }
                // A blank line.
                guard let spec = read else { continue }
                specLines.append(lines.lineNumber)
                return spec
            } catch let error as LineTooLong {
                fail(line: error.line, "the line is longer than \(error.limit) bytes (\(error.limit >> 20) MiB), the longest spec a file of specs may hold")
                // Bounded memory: the rest of an endless line is never read.
                stopped = true
            } catch let error as SpecError {
                fail(line: lines.lineNumber + 1, error.reason)
                stopped = true
            } catch let error as CommandError {
                fail(line: lines.lineNumber, error.description)
            } catch {
                fail(line: lines.lineNumber, "\(error)")
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
}
