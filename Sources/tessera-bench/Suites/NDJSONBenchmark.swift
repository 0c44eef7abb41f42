import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// Precomputes a feed read from an NDJSON file of `count` lines, to measure
/// peak memory while streaming: the items are never all in memory.
struct NDJSONBenchmark {
    var count: Int
    var directory: String

    struct Report: Codable {
        var elements: Int
        var fileBytes: Int
        var seconds: Double
        var peakResidentBytes: Int
    }

    func run() async throws -> Report {
        let items = "\(directory)/items.ndjson"
        let specPath = "\(directory)/ndjson-spec.json"
        let database = "\(directory)/ndjson.sqlite"
        try writeItems(to: items)
        try #"{"format": 1, "name": "ndjson", "sections": [{"layout": {"kind": "staggered", "columns": 3, "itemSpacing": 2, "lineSpacing": 2}, "items": {"file": "items.ndjson"}}]}"#
            .write(toFile: specPath, atomically: true, encoding: .utf8)
        StoreBenchmark.remove(database)
        defer {
            StoreBenchmark.remove(database)
            unlink(items)
        }
        let store = try LayoutStore(path: database)
        let start = now()
        let layouts = try await store.save(Spec(contentsOfFile: specPath), crossExtents: [BenchSpecs.width]).layouts
        let seconds = now() - start
        var info = stat()
        stat(items, &info)
        return Report(
            elements: layouts.first?.elementCount ?? 0,
            fileBytes: Int(info.st_size),
            seconds: seconds,
            peakResidentBytes: ProcessMemory.peakResidentBytes ?? 0
        )
    }

    private func writeItems(to path: String) throws {
        guard let file = fopen(path, "wb") else { throw CommandError("cannot write \(path)") }
        defer { fclose(file) }
        let lines = ["{\"aspectRatio\": 0.75}\n", "{\"aspectRatio\": 1.5}\n", "{\"aspectRatio\": 1}\n", "{\"length\": 180, \"columns\": 2}\n"]
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        for index in 0..<count {
            buffer.append(contentsOf: lines[index % lines.count].utf8)
            if buffer.count >= 1 << 20 {
                fwrite(buffer, 1, buffer.count, file)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        fwrite(buffer, 1, buffer.count, file)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
