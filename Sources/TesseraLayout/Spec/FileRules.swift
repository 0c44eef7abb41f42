/// What a read of a file accepts, checked before its bytes are held: the
/// kind of file, its size, the length of a line. Items files, spec files
/// and files of specs are read under these, by ``FileReader``.
package struct FileRules: Sendable {
    /// The files these rules are for, plural, as messages name them ("items files").
    package var files: String
    /// A FIFO, device, directory or socket is refused before a byte is read
    /// (a FIFO would wait for a writer forever, a device never end).
    package var regularFileOnly: Bool
    /// `-` names standard input, read under the same limits.
    package var standardInputDash: Bool
    /// The most bytes the whole file may hold.
    package var maximumBytes: Int?
    /// The longest line, for reads line by line (``LineReader``).
    package var maximumLineBytes: Int?
}

extension FileRules {
    /// NDJSON items files: regular files, lines of at most ``Spec/maximumItemLineBytes``.
    package static let itemsFile = FileRules(
        files: "items files", regularFileOnly: true, standardInputDash: false, maximumBytes: nil, maximumLineBytes: Spec.maximumItemLineBytes
    )

    /// Spec files as the library reads them: regular files of at most ``Spec/maximumFileBytes``.
    package static let specFile = FileRules(
        files: "spec files", regularFileOnly: true, standardInputDash: false, maximumBytes: Spec.maximumFileBytes, maximumLineBytes: nil
    )

    /// Files of specs, one per line: regular files, lines of at most ``Spec/maximumFileBytes``.
    package static let specLines = FileRules(
        files: "files of specs", regularFileOnly: true, standardInputDash: false, maximumBytes: nil, maximumLineBytes: Spec.maximumFileBytes
    )

    /// Files of item changes (`tessera resize`), read whole: regular files
    /// (or `-`, standard input) of at most ``Spec/maximumFileBytes``.
    package static let changesFile = FileRules(
        files: "files of changes", regularFileOnly: true, standardInputDash: true, maximumBytes: Spec.maximumFileBytes, maximumLineBytes: nil
    )

    /// No rule: whatever `path` names, read whole.
    static let unrestricted = FileRules(files: "files", regularFileOnly: false, standardInputDash: false, maximumBytes: nil, maximumLineBytes: nil)

    /// Whether `path` names standard input under these rules.
    package func readsStandardInput(_ path: String) -> Bool {
        standardInputDash && path == "-"
    }

    /// The file at `path` as messages name it: its path quoted, or `standard input`.
    package func name(of path: String) -> String {
        readsStandardInput(path) ? "standard input" : path.quotedPathForMessage
    }

    /// These rules, with `-` naming standard input (as on the command line).
    package var readingStandardInput: FileRules {
        var rules = self
        rules.standardInputDash = true
        return rules
    }
}
