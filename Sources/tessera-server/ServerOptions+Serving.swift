import ArgumentParser
import Foundation
import TesseraBackends
import TesseraHummingbird
import TesseraServerSupport
import TesseraStore

/// Reading the options only serving takes: the token file, the extent range, the timeouts, the disk reserve.
extension ServerOptions {
    /// The bearer token in `path`, surrounding whitespace ignored.
    static func token(fromFile path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("--token-file: cannot read '\(path)'")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw ValidationError("--token-file: '\(path)' is not UTF-8 text") }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw ValidationError("--token-file: '\(path)' holds no token") }
        guard !token.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw ValidationError("--token-file: the token in '\(path)' must be one word without spaces or control characters")
        }
        return token
    }

    /// `MIN-MAX`, two numbers with MIN above 0 and not above MAX.
    static func extentRange(_ text: String) throws -> ClosedRange<Double> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Double(parts[0]), let high = Double(parts[1]), low.isFinite, high.isFinite else {
            throw ValidationError("--compute-extents takes MIN-MAX, two numbers such as 200-3000, got '\(text)'")
        }
        guard low > 0, low <= high else {
            throw ValidationError("--compute-extents: MIN must be above 0 and not above MAX, got '\(text)'")
        }
        return low...high
    }

    /// The reserve beside a SQLite store (`STORE-reserve`), allocated now
    /// when the disk has room; none for other stores or 0 bytes.
    static func diskReserve(db: String, bytes: Int) throws -> DiskReserve? {
        guard bytes > 0, case .file(let path) = try StoreLocation(parsing: db), !isOnReadOnlyFileSystem(db) else { return nil }
        let reserve = DiskReserve(path: path + "-reserve", bytes: bytes)
        reserve.restore()
        return reserve
    }

    /// `--cors-origin`'s values: origins (`scheme://host[:port]`), or `*` alone.
    static func crossOriginAccess(_ values: [String]) throws -> CrossOriginAccess {
        do {
            return try CrossOriginAccess(origins: values)
        } catch {
            throw ValidationError("--cors-origin: \(error)")
        }
    }

    /// A timeout flag's seconds: above 0, at most a day.
    static func timeout(_ seconds: Double, flag: String) throws -> Duration {
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
            throw ValidationError("--\(flag) takes seconds above 0 and at most 86400, got \(seconds)")
        }
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }
}
