import Foundation
import Testing
@testable import TesseraLayout

#if canImport(Glibc)
import Glibc
#endif

/// The reads under ``FileRules`` that items files, spec files and files of
/// specs share: lines across chunks, the line limit, the kind and size of a
/// spec file.
@Suite("files read under rules: lines, limits, kinds")
struct FileReaderTests {
    static let lineLimit = 100_000

    static func rules(lineLimit: Int = lineLimit) -> FileRules {
        FileRules(files: "test files", regularFileOnly: true, standardInputDash: false, maximumBytes: nil, maximumLineBytes: lineLimit)
    }

    /// A new file in the temporary folder holding `bytes`, removed after `body`.
    static func withFile<T>(_ bytes: [UInt8], _ body: (String) throws -> T) throws -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-reader-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// Every line of the file at `path`, with its number.
    static func lines(of path: String) throws -> [(Int, [UInt8])] {
        let reader = try LineReader(path: path, rules: rules(), errorPath: "")
        var lines: [(Int, [UInt8])] = []
        while let line = try reader.next({ Array($0) }) { lines.append((reader.lineNumber, line)) }
        return lines
    }

    @Test("lines across chunk boundaries, blank lines and a last line without a newline; a line of exactly the limit passes")
    func lines() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: Self.lineLimit)
        let bytes = Array("a\n\n".utf8) + long + [0x0A] + long + Array("\nb".utf8)
        let lines = try Self.withFile(bytes) { try Self.lines(of: $0) }
        #expect(lines.map(\.0) == [1, 2, 3, 4, 5])
        #expect(lines.map(\.1) == [Array("a".utf8), [], long, long, Array("b".utf8)])
    }

    @Test("a line one byte over the limit is refused with its number, ended by a newline or by the file")
    func lineTooLong() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: Self.lineLimit + 1)
        for bytes in [Array("a\n".utf8) + long + [0x0A], Array("a\n".utf8) + long] {
            try Self.withFile(bytes) { path in
                do {
                    _ = try Self.lines(of: path)
                    Issue.record("a line of \(long.count) bytes was read")
                } catch let error as LineTooLong {
                    #expect(error.line == 2 && error.limit == Self.lineLimit)
                }
            }
        }
    }

    @Test("a spec file that is a device, a FIFO or a folder is refused before a byte is read")
    func specFileKinds() throws {
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-spec-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { _ = remove(fifo) }
        for (path, kind) in [("/dev/zero", "a device"), (fifo, "a FIFO"), ("/tmp", "a directory")] {
            #expect(throws: SpecError(path: "", reason: "'\(path)' is \(kind); spec files must be regular files")) {
                try Spec(contentsOfFile: path)
            }
        }
    }

    @Test("a spec file larger than Spec.maximumFileBytes is refused by its size")
    func specFileSize() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-large-\(UUID().uuidString).json").path
        FileManager.default.createFile(atPath: path, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(truncate(path, off_t(Spec.maximumFileBytes + 1)) == 0)
        let limit = Spec.maximumFileBytes
        #expect(throws: SpecError(path: "", reason: "'\(path)' holds \(limit + 1) bytes; spec files may hold at most \(limit) bytes (64 MiB)")) {
            try Spec(contentsOfFile: path)
        }
    }
}
