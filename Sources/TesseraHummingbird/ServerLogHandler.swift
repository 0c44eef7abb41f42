#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import TesseraLayout

/// The server's log lines on standard error, one per event, in logfmt:
///
///     2026-11-24T13:55:55.123Z info tessera-server: request hb.request.id=42 method=GET path=/v1/health status=200 us=8
///
/// Metadata keys are sorted; an empty value, or one with a space, a quote
/// or a control character, is written as a JSON string. Time is UTC, computed
/// without the C library's time-zone code (`strftime` reads the zone file
/// on every call). Each line is one `write(2)`: lines of concurrent
/// requests never interleave, and no lock is taken.
package struct ServerLogHandler: LogHandler {
    /// The logger's label, written after the level.
    package let label: String
    /// The least level written.
    package var logLevel: Logger.Level = .info
    /// Metadata written on every line of this logger.
    package var metadata: Logger.Metadata = [:]
    /// Metadata asked for at each line (a request's id).
    package var metadataProvider: Logger.MetadataProvider?
    private let fileDescriptor: Int32

    /// Writes to `fileDescriptor`, standard error unless told.
    package init(label: String, fileDescriptor: Int32 = 2, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.fileDescriptor = fileDescriptor
        self.metadataProvider = metadataProvider
    }

    /// One metadata value of this logger.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes the event as one line.
    package func log(event: LogEvent) {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var fields = Array(metadata)
        if let provided = metadataProvider?.get(), !provided.isEmpty { Self.merge(provided, into: &fields) }
        if let explicit = event.metadata, !explicit.isEmpty { Self.merge(explicit, into: &fields) }
        if let error = event.error { Self.merge(["error": .string("\(error)")], into: &fields) }
        let line = Self.line(
            seconds: Int64(time.tv_sec), milliseconds: Int(time.tv_nsec / 1_000_000),
            level: event.level, label: label, message: event.message.description, fields: fields
        )
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fileDescriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // Nowhere to report a log that cannot be written.
                }
            }
        }
    }

    /// `fields` with `more` added; a key of `more` replaces the same key.
    private static func merge(_ more: Logger.Metadata, into fields: inout [(key: String, value: Logger.Metadata.Value)]) {
        fields.removeAll { more[$0.key] != nil }
        fields.append(contentsOf: more)
    }

    /// One line of text, its newline included.
    static func line(
        seconds: Int64, milliseconds: Int, level: Logger.Level, label: String, message: String,
        fields: [(key: String, value: Logger.Metadata.Value)]
    ) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(160)
        appendTimestamp(seconds: seconds, milliseconds: milliseconds, to: &line)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: label.utf8)
        line.append(contentsOf: ": ".utf8)
        line.append(contentsOf: message.utf8)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            appendValue(value, to: &line)
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    private static func appendValue(_ value: Logger.Metadata.Value, to line: inout [UInt8]) {
        let text: String
        switch value {
        case .string(let string): text = string
        case .stringConvertible(let convertible): text = convertible.description
        case .array, .dictionary: text = value.description
        }
        let plain = !text.isEmpty && !text.utf8.contains { byte in
            byte <= UInt8(ascii: " ") || byte == UInt8(ascii: "\"") || byte == 0x7F
        }
        guard plain else {
            line.append(contentsOf: JSONWriter.quote(text).utf8)
            return
        }
        line.append(contentsOf: text.utf8)
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the civil date of a Unix time in UTC
    /// (days to year, month and day by Howard Hinnant's algorithm).
    static func appendTimestamp(seconds: Int64, milliseconds: Int, to line: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                line.append(UInt8(ascii: "0") + UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        line.append(UInt8(ascii: "-"))
        digits(month, 2)
        line.append(UInt8(ascii: "-"))
        digits(day, 2)
        line.append(UInt8(ascii: "T"))
        digits(secondOfDay / 3_600, 2)
        line.append(UInt8(ascii: ":"))
        digits(secondOfDay / 60 % 60, 2)
        line.append(UInt8(ascii: ":"))
        digits(secondOfDay % 60, 2)
        line.append(UInt8(ascii: "."))
        digits(milliseconds, 3)
        line.append(UInt8(ascii: "Z"))
    }
}
