#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the process received it, bytes and all. On Linux
/// `CommandLine.arguments` repairs bytes that are not UTF-8 into U+FFFD, so
/// a value holding U+FFFD may stand for bytes that were never text: only
/// the raw arguments tell.
enum RawArguments {
    /// Whether `value` came from an argument that is not valid UTF-8: the
    /// argument itself (`--name VALUE`) or its part after `=` (`--name=VALUE`).
    static func isRepaired(_ value: String) -> Bool {
        guard value.unicodeScalars.contains("\u{FFFD}") else { return false }
        return invalidArguments().contains { $0 == value || $0.hasSuffix("=" + value) }
    }

    /// The arguments after the program's name that are not valid UTF-8, as
    /// `CommandLine.arguments` holds them (repaired).
    private static func invalidArguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return nil }
            let bytes = Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
            guard String(validating: bytes, as: UTF8.self) == nil else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
