import TesseraLayout

/// A failure reported to the user as one line, with a non-zero exit.
package struct CommandError: Error, CustomStringConvertible {
    /// The line, without `error: `.
    package var description: String

    /// A failure that `description` explains.
    package init(_ description: String) {
        self.description = description
    }

    /// Names the file when a spec error has no path of its own.
    package static func spec(_ error: SpecError, file: String) -> CommandError {
        CommandError(error.path.isEmpty ? "\(file): \(error.reason)" : "\(file): \(error.path): \(error.reason)")
    }
}
