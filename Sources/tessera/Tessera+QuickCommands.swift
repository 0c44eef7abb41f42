import TesseraBackends

/// The command lines a short process runs most often, read without
/// ArgumentParser: `tessera --version`, and `tessera append` with `--db`,
/// `--name`, `--section`, `--quiet` and an items file, each at most once.
/// ArgumentParser reflects on every command's arguments before it parses
/// (milliseconds of a process that appends in a few more); these lines
/// mean exactly what ArgumentParser would make of them. Anything else (an
/// `=`, a value that starts with `-`, a repeated option, help, a value that
/// fails its check) is left to ArgumentParser, which parses it as always
/// and words its errors.
enum QuickCommand: Equatable {
    case version
    case append(AppendRequest)

    /// The command `arguments` (after the program's name) name, when they
    /// are one of the quick forms and pass their checks.
    static func parse(_ arguments: [String]) -> QuickCommand? {
        if arguments == ["--version"] { return .version }
        guard arguments.first == "append" else { return nil }
        var values: [String: String] = [:]
        var quiet = false
        var items: String?
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--db", "--name", "--section":
                // `--section` is parsed unconditionally: ArgumentParser would take `-5`, and its check refuses it.
                guard values[argument] == nil, let value = rest.popFirst(), !value.hasPrefix("-") || argument == "--section" else { return nil }
                values[argument] = value
            case "--quiet":
                guard !quiet else { return nil }
                quiet = true
            default:
                guard items == nil, !argument.hasPrefix("-") else { return nil }
                items = argument
            }
        }
        guard let db = values["--db"], let name = values["--name"], let sectionText = values["--section"], let section = Int(sectionText),
              let items
        else { return nil }
        guard (try? SectionTarget.validate(name: name, section: section)) != nil else { return nil }
        return .append(AppendRequest(db: db, name: name, section: section, quiet: quiet, items: items))
    }

    /// Runs the command, printing what ArgumentParser's run of it prints.
    func run() async throws {
        switch self {
        case .version: print(TesseraVersion.current)
        case .append(let request): try await request.run()
        }
    }
}
