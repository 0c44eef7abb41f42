import Foundation
import Locking
import Synchronization
import TesseraCommandSupport
import TesseraLayout
import TesseraStore
import TesseraPrecompute

/// The specs of an NDJSON file, one per line, read line by line as the store
/// takes them: the file is never all in memory. Blank lines are skipped. A
/// line that is not valid UTF-8 or JSON, is not a valid spec, has no
/// `"name"`, or scrolls along the other axis is a ``Failure`` naming its
/// line; the specs end there unless `keepGoing` is set.
///
/// The store's batch takes it over and reads it on its own threads, while
/// the progress callback reads ``bytesRead`` (an atomic); the command reads
/// ``failures`` and ``line(ofSpec:)`` after the batch returned. What
/// reading changes is behind a lock.
final class SpecLines: Sequence, IteratorProtocol, Sendable {
    /// A line that gave no spec.
    struct Failure {
        var line: Int
        var message: String
    }

    /// What reading changes: the reader's place, and what it found.
    private struct Reading {
        var lines: LineReader
        /// The line of each spec handed out, by its index among them.
        var specLines: [Int] = []
        var failures: [Failure] = []
        /// Reading ended at a failure.
        var stopped = false
    }

    let path: String
    private let reading: Locked<Reading>
    private let axis: Axis
    private let keepGoing: Bool
    /// Only the lines of specs whose names belong to it; a line without a
    /// name that can be read belongs to shard 0.
    private let shard: SpecShard?
    private let baseDirectory: String
    /// The file's size, when it is a regular file: progress is the share read.
    let totalBytes: Int?
    var bytesRead: Int { bytesReadSoFar.load(ordering: .relaxed) }
    /// ``bytesRead`` as of the last line read, for other threads to read.
    private let bytesReadSoFar = Atomic<Int>(0)
    /// The lines that gave no spec, in the order found.
    var failures: [Failure] { reading.withLock { $0.failures } }

    /// Opens `path` (`-`: standard input) under the rules of files of specs
    /// (``FileRules/specLines``); specs must scroll along `axis` (the extents given).
    init(path: String, axis: Axis, keepGoing: Bool, shard: SpecShard? = nil) throws {
        let lines: LineReader
        do {
            lines = try LineReader(path: path, rules: FileRules.specLines.readingStandardInput, errorPath: "")
        } catch let error as SpecError {
            throw CommandError(error.reason)
        }
        totalBytes = lines.file.size
        reading = Locked(Reading(lines: lines))
        self.path = path
        self.axis = axis
        self.keepGoing = keepGoing
        self.shard = shard
        // For `-`, the current folder.
        baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    func next() -> Spec? {
        reading.withLock { reading in
            defer { bytesReadSoFar.store(reading.lines.file.bytesRead, ordering: .relaxed) }
            while !reading.stopped {
                do {
                    let read = try reading.lines.next { line -> Spec? in
                        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return nil }
                        return try parse(Array(line))
                    }
                    // The end of the file.
                    guard let read else { return nil }
                    // A blank line, or another shard's.
                    guard let spec = read else { continue }
                    reading.specLines.append(reading.lines.lineNumber)
                    return spec
                } catch let error as LineTooLong {
                    let limit = error.limit
                    record(&reading, line: error.line, "the line is longer than \(limit) bytes (\(limit >> 20) MiB), the longest spec a file of specs may hold")
                    // Bounded memory: the rest of an endless line is never read.
                    reading.stopped = true
                } catch let error as SpecError {
                    record(&reading, line: reading.lines.lineNumber + 1, error.reason)
                    reading.stopped = true
                } catch let error as CommandError {
                    record(&reading, line: reading.lines.lineNumber, error.description)
                } catch {
                    record(&reading, line: reading.lines.lineNumber, "\(error)")
                }
            }
            return nil
        }
    }

    /// Records a failure on `line`; reading stops there unless going on.
    func fail(line: Int, _ message: String) {
        reading.withLock { record(&$0, line: line, message) }
    }

    private func record(_ reading: inout Reading, line: Int, _ message: String) {
        reading.failures.append(Failure(line: line, message: message))
        if !keepGoing { reading.stopped = true }
    }

    /// `FILE:LINE: message`.
    func located(line: Int, _ message: String) -> String {
        "\(path):\(line): \(message)"
    }

    /// The line of the spec the store numbered `index`.
    func line(ofSpec index: Int) -> Int {
        reading.withLock { $0.specLines.indices.contains(index) ? $0.specLines[index] : 0 }
    }

    /// The line's spec, nil when it belongs to another shard.
    private func parse(_ bytes: [UInt8]) throws -> Spec? {
        // Lines without a name to read are shard 0's to report.
        let unnamedHere = shard.map { $0.index == 0 } ?? true
        guard String(validating: bytes, as: UTF8.self) != nil else {
            guard unnamedHere else { return nil }
            throw CommandError("the line is not valid UTF-8")
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            guard unnamedHere else { return nil }
            throw CommandError("not valid JSON: column \(error.column): \(error.reason)")
        }
        if let shard {
            guard case .object(let object) = json, case .string(let name)? = object["name"] else {
                guard unnamedHere else { return nil }
                return try spec(json)
            }
            guard shard.contains(name: name) else { return nil }
        }
        return try spec(json)
    }

    private func spec(_ json: JSONValue) throws -> Spec {
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
