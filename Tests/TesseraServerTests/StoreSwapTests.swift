import Foundation
import Locking
import TesseraLayout
import TesseraSQLite
import TesseraStore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGHUP makes a running `tessera-server` serve the store file moved over
/// its `--db` path; a file that cannot be served is refused.
@Suite("server: replacing the store under a running server", .timeLimit(.minutes(2)))
struct StoreSwapTests {
    /// Two stores with one feed of the same name and different content.
    struct Stores {
        let directory: URL
        let served: String
        let first: String
        let second: String

        init() async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-swap-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            served = directory.appendingPathComponent("feeds.sqlite").path
            first = directory.appendingPathComponent("first.sqlite").path
            second = directory.appendingPathComponent("second.sqlite").path
            for (path, feed) in [(first, ServerFixture.feed), (second, ServerFixture.feed.replacingOccurrences(of: "\"count\": 300", with: "\"count\": 420"))] {
                let store = try LayoutStore(path: path)
                try await store.save(try Spec(jsonText: feed), as: "feed", crossExtents: [390])
                store.close()
            }
            try FileManager.default.copyItem(atPath: first, toPath: served)
        }

        /// Copies `source` beside the served file and renames it over it, as the article's recipe does.
        func moveOver(_ source: String) throws {
            let next = directory.appendingPathComponent("next.sqlite").path
            try? FileManager.default.removeItem(atPath: next)
            try FileManager.default.copyItem(atPath: source, toPath: next)
            #expect(rename(next, served) == 0)
        }

        func remove() {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The server's standard error, read as it comes.
    final class ErrorLines: Sendable {
        private let text = Locked("")

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    let data = handle.availableData
                    if data.isEmpty { return }
                    text.withLock { $0 += String(decoding: data, as: UTF8.self) }
                }
            }
        }

        var all: String { text.withLock { $0 } }

        /// Waits (at most 20 s) until `count` lines contain `fragment`.
        func wait(for fragment: String, count: Int) async throws {
            for _ in 0..<2000 {
                if all.components(separatedBy: "\n").filter({ $0.contains(fragment) }).count >= count { return }
                try await Task.sleep(for: .milliseconds(10))
            }
            Issue.record("no \(count) lines with '\(fragment)' within 20 s; stderr: \(all)")
        }
    }

    /// An answer's status line and body (chunks joined).
    static func answer(port: Int, _ path: String) -> String? { try? reply(port: port, path) }

    /// Why a read got no answer.
    struct NoAnswer: Error, CustomStringConvertible {
        var description: String
    }

    /// ``answer(port:_:)``, or why there is none.
    static func reply(port: Int, _ path: String) throws -> String {
        let text: String
        do { text = try ServerProcessTests.get(port: port, path) } catch { throw NoAnswer(description: "connecting or sending: \(error)") }
        guard let split = text.range(of: "\r\n\r\n") else {
            throw NoAnswer(description: "no whole head within 60 s; read \(text.utf8.count) bytes: \(text.prefix(200))")
        }
        let head = text[..<split.lowerBound]
        var body = String(text[split.upperBound...])
        if head.lowercased().contains("transfer-encoding: chunked") {
            var joined = ""
            var rest = Substring(body)
            while let line = rest.range(of: "\r\n"), let size = Int(rest[..<line.lowerBound], radix: 16), size > 0 {
                let start = line.upperBound
                let utf8 = rest.utf8
                guard let end = utf8.index(start, offsetBy: size, limitedBy: utf8.endIndex) else {
                    throw NoAnswer(description: "a chunk cut short: \(text.prefix(200))")
                }
                joined += String(rest[start..<end])
                rest = rest[end...].dropFirst(2)
            }
            body = joined
        }
        return (head.split(separator: "\r\n").first.map(String.init) ?? "") + "\n" + body
    }

    @Test("readers see the old store's or the new store's answer through swaps, never an error; a bad file is refused")
    func swapsUnderReaders() async throws {
        let stores = try await Stores()
        defer { stores.remove() }
        let server = try ServerProcessTests.Running(["--db", stores.served, "--log-level", "warning"])
        defer { if server.process.isRunning { _ = server.stop() } }
        let errors = ErrorLines(server.errors)
        let port = server.port
        if port == 0 {
            // Stopped, so that what it wrote to standard error is all there to report.
            let status = server.stop()
            try await Task.sleep(for: .milliseconds(200))
            Issue.record("no port: first line \(server.firstLine.debugDescription), exit \(status), standard error: \(errors.all.suffix(2_000))")
        }
        try #require(port > 0)
        var swaps = 0
        func swap(to source: String) async throws {
            try stores.moveOver(source)
            swaps += 1
            kill(server.process.processIdentifier, SIGHUP)
            try await errors.wait(for: "serving the store now at", count: swaps)
        }

        // Each store's answer to each request, from the server itself.
        let viewports = [12800, 13400, 15000, 17000].map { "/v1/feeds/feed/layouts/390/visible?rect=0,\($0),390,844" }
        let manifest = "/v1/feeds/feed/layouts/390/tiles"
        func revision() throws -> String {
            let text = try #require(Self.answer(port: port, manifest)).split(separator: "\n", maxSplits: 1).last.map(String.init) ?? ""
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return try #require(object?["revision"] as? String)
        }
        let revisions = [try revision()]
        try await swap(to: stores.second)
        let both = revisions + [try revision()]
        #expect(both[0] != both[1])
        let requests = viewports + [manifest] + both.flatMap { ["/v1/feeds/feed/layouts/390/revisions/\($0)/tiles/0", "/v1/feeds/feed/layouts/390/revisions/\($0)/columns/1"] }
        let second = requests.map { Self.answer(port: port, $0) }
        try await swap(to: stores.first)
        let first = requests.map { Self.answer(port: port, $0) }
        for (index, request) in requests.enumerated() {
            #expect(first[index] != nil && second[index] != nil, "\(request)")
            if !request.contains("/revisions/") { #expect(first[index] != second[index], "\(request) answers alike from both stores") }
        }

        // Four readers while the store is swapped six times, and a bad file refused once.
        let counts = Locked((reads: 0, errors: 0, wrong: 0, samples: [String]()))
        let stop = Locked(false)
        let readers = DispatchGroup()
        for reader in 0..<4 {
            readers.enter()
            Thread.detachNewThread {
                var index = reader
                while !stop.withLock({ $0 }) {
                    let request = index % requests.count
                    index += 1
                    let answer: String
                    do {
                        answer = try Self.reply(port: port, requests[request])
                    } catch {
                        answer = "\(error)"
                    }
                    counts.withLock { counts in
                        counts.reads += 1
                        if answer == first[request] || answer == second[request] { return }
                        if !answer.hasPrefix("HTTP/1.1 ") || answer.hasPrefix("HTTP/1.1 5") {
                            counts.errors += 1
                            if counts.samples.count < 6 { counts.samples.append("\(Date()) \(requests[request]): \(answer.prefix(300))") }
                        } else {
                            counts.wrong += 1
                            if counts.samples.count < 6 { counts.samples.append("\(requests[request]): \(answer.prefix(300))") }
                        }
                    }
                }
                readers.leave()
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        for round in 0..<6 {
            try await swap(to: round.isMultiple(of: 2) ? stores.second : stores.first)
            try await Task.sleep(for: .milliseconds(300))
            if round == 2 {
                let junk = stores.directory.appendingPathComponent("junk.sqlite").path
                try Data("not a store\n".utf8).write(to: URL(fileURLWithPath: junk))
                #expect(rename(junk, stores.served) == 0)
                kill(server.process.processIdentifier, SIGHUP)
                try await errors.wait(for: "still serving the store open before", count: 1)
                try await Task.sleep(for: .milliseconds(300))
            }
        }
        stop.withLock { $0 = true }
        await withCheckedContinuation { continuation in readers.notify(queue: .global()) { continuation.resume() } }

        let result = counts.withLock { $0 }
        print("StoreSwapTests: \(result.reads) reads during \(swaps - 2) swaps and 1 refusal: \(result.errors) errors, \(result.wrong) wrong answers")
        #expect(result.reads > 100)
        #expect(result.errors == 0 && result.wrong == 0, "\(result.samples); server's log: \(errors.all.suffix(2_000))")
        let refusal = errors.all.components(separatedBy: "\n").filter { $0.contains("still serving the store open before") }
        #expect(refusal.count == 1 && refusal[0].contains("junk") == false && refusal[0].contains("feeds.sqlite"), "\(refusal)")
        // The last store moved in is served, and the server still stops cleanly.
        #expect(Self.answer(port: port, viewports[1]) == first[1])
        #expect(server.stop() == 0)
    }
}
