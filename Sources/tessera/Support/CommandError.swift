import TesseraLayout

/// A failure reported to the user as one line, with a non-zero exit.
struct CommandError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// Names the file when a spec error has no path of its own.
    static func spec(_ error: SpecError, file: String) -> CommandError {
        CommandError(error.path.isEmpty ? "\(file): \(error.reason)" : "\(file): \(error.path): \(error.reason)")
    }
}
