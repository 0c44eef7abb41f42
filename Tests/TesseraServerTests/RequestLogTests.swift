import Foundation
import Hummingbird
import Logging
@testable import TesseraHummingbird
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's log lines, and the in-place reading of query parameters
/// that the request path uses instead of Hummingbird's dictionary.
@Suite("Request logs and query values")
struct RequestLogTests {
    @Test("timestamps are the UTC civil time of the Unix time, to the millisecond")
    func timestamps() {
        func text(_ seconds: Int64, _ milliseconds: Int) -> String {
            var bytes: [UInt8] = []
            ServerLogHandler.appendTimestamp(seconds: seconds, milliseconds: milliseconds, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        #expect(text(0, 0) == "1970-01-01T00:00:00.000Z")
        #expect(text(951_782_400, 7) == "2000-02-29T00:00:00.007Z")  // a leap day of a century leap year
        #expect(text(1_795_960_555, 123) == "2026-11-29T13:55:55.123Z")
        #expect(text(4_107_542_399, 999) == "2100-02-28T23:59:59.999Z")
        #expect(text(-1, 0) == "1969-12-31T23:59:59.000Z")
        // Every day of 1970–2200 against the C library's gmtime_r.
        for day in stride(from: Int64(0), to: 84_000, by: 1) {
            let seconds = day * 86_400 + (day * 7_919) % 86_400
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.000Z",
                Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)
            )
            guard text(seconds, 0) == expected else {
                Issue.record("\(seconds): \(text(seconds, 0)) instead of \(expected)")
                return
            }
        }
    }

    @Test("a line: level, label, message, then the metadata sorted by key; values with blanks or quotes as JSON strings")
    func line() {
        let line = ServerLogHandler.line(
            seconds: 0, milliseconds: 5, level: .error, label: "tessera-server", message: "request",
            fields: [
                ("status", .stringConvertible(500)), ("method", .string("GET")), ("path", .string("/v1/feeds/a/layouts/390/visible?rect=0,0,1,1")),
                ("detail", .string("store \"x\" is damaged\nat row 3")), ("empty", .string("")), ("list", .array([.string("a"), .string("b")])),
            ]
        )
        #expect(String(decoding: line, as: UTF8.self) == """
            1970-01-01T00:00:00.005Z error tessera-server: request detail="store \\"x\\" is damaged\\nat row 3" empty="" \
            list="[\\"a\\", \\"b\\"]" method=GET path=/v1/feeds/a/layouts/390/visible?rect=0,0,1,1 status=500

            """)
    }

    @Test("a handler writes whole lines to its file: the logger's metadata, then the event's, which wins")
    func handlerWritesLines() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        var logger = Logger(label: "test") { label in ServerLogHandler(label: label, fileDescriptor: descriptors[1]) }
        logger[metadataKey: "request"] = "7"
        logger[metadataKey: "status"] = "overridden"
        logger.info("request", metadata: ["status": .stringConvertible(200)])
        logger.debug("not written at info")
        logger.warning("second")
        close(descriptors[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = read(descriptors[0], &buffer, buffer.count), count > 0 { bytes += buffer[..<count] }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3 && lines.last == "", "\(lines)")
        #expect(lines.first?.hasSuffix(" info test: request request=7 status=200") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasSuffix(" warning test: second request=7 status=overridden") == true, "\(lines)")
    }

    @Test("query values read in place equal Hummingbird's query parameters", arguments: [
        "rect=0,10,390,844", "a=1&rect=0,0,1,1&b=2", "rect=1&rect=2", "rect", "rect=", "rect=a=b", "rectangle=1", "x=rect",
        "&&rect=5&&", "rect=%30,0,1,1", "r%65ct=1&rect=2", "extent=390&extent=430.5", "rect=1+2", "",
    ])
    func queryValues(query: String) {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/v1/x" + (query.isEmpty ? "" : "?" + query)),
            body: RequestBody(buffer: ByteBuffer())
        )
        for key in ["rect", "extent", "a"] {
            let expected = request.uri.queryParameters.getAll(key)
            #expect(RequestValues.queryValues(key, of: request).map(String.init) == expected, "\(key) in \(query)")
        }
    }
}
