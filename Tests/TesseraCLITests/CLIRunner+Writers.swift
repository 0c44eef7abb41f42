import Foundation
import Testing

extension CLIRunner {
    /// Starts `tessera` with `arguments` in the background, output discarded
    /// but for standard error, kept in `errors`.
    static func start(_ arguments: [String], errors: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits (up to a minute) until `process` has written more than `bytes`
    /// to the WAL of `database`: it is then inside its write transaction.
    /// Returns whether it got there, false when the process ended first.
    @discardableResult
    static func waitUntilWriting(_ process: Process, database: String, bytes: Int = 8_000_000) -> Bool {
        let wal = database + "-wal"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size > bytes { return true }
            usleep(2000)
        }
        return false
    }
}

extension CLIRunner {
    /// A store made by `tessera precompute` of the spec `json` at 390 in
    /// `directory` (feed.json beside feed.sqlite); returns the store's path.
    static func precomputed(_ json: String, in directory: URL) throws -> String {
        let spec = try file("feed.json", in: directory, json)
        let database = directory.appendingPathComponent("feed.sqlite").path
        let result = try run(["precompute", spec, "--db", database, "--width", "390", "--quiet"])
        try #require(result.status == 0, "\(result.stderr)")
        return database
    }
}
