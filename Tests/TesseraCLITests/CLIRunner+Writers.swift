import Foundation

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
    /// Returns early when the process ends.
    static func waitUntilWriting(_ process: Process, database: String, bytes: Int = 8_000_000) {
        let wal = database + "-wal"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size > bytes { return }
            usleep(2000)
        }
    }
}
