import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The PostgreSQL server the tests of the PostgreSQL backend use:
/// `TESSERA_POSTGRES_URL` when set (any server the tests may create schemas
/// in), otherwise a throwaway cluster that `Scripts/postgres.sh` starts in
/// the temporary folder for this test process and stops when it exits.
///
/// Without either, PostgreSQL is installed when the tests may install it
/// (see PostgresTestServer+Install.swift); otherwise those tests fail (never
/// skip) with a message that says how to give them a server.
public enum PostgresTestServer {
    private static let started: Result<String, PostgresTestServerError> = start()

    /// The server's URL (without `?schema=`).
    public static func url() throws -> String {
        try started.get()
    }

    /// A URL of the server with a schema of its own, new for each call: a
    /// store of its own in the shared database.
    public static func freshStoreURL() throws -> String {
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        return "\(try url())?schema=\(schema)"
    }

    /// The repository's root, from this file's path.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    nonisolated(unsafe) private static var clusterDirectory: String?

    private static func start() -> Result<String, PostgresTestServerError> {
        if let url = ProcessInfo.processInfo.environment["TESSERA_POSTGRES_URL"], !url.isEmpty {
            return .success(url)
        }
        if case .failure(let error) = installation { return .failure(error) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-test-pg-\(getpid())").path
        let started = script(["start", directory])
        if case .success = started {
            clusterDirectory = directory
            atexit {
                guard let directory = PostgresTestServer.clusterDirectory else { return }
                _ = PostgresTestServer.script(["stop", directory])
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
        return started
    }

    /// Runs Scripts/postgres.sh with `arguments` (the tests' fast settings);
    /// the last line it printed (a URL) or why it failed.
    public static func script(_ arguments: [String]) -> Result<String, PostgresTestServerError> {
        let script = repositoryRoot.appendingPathComponent("Scripts/postgres.sh").path
        // Through system(3), with the output in files: a server the script
        // starts inherits the descriptors of its parent, and Foundation's
        // Process then never sees the script end (nor a pipe's end of file).
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-pg-script-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let command = "TESSERA_PG_FAST=1 " + (["/bin/bash", script] + arguments).map(shellQuoted).joined(separator: " ")
            + " >\(shellQuoted(base + ".out")) 2>\(shellQuoted(base + ".err")) </dev/null"
        let status = system(command)
        let printed = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        let complaints = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
        guard status == 0 else {
            return .failure(PostgresTestServerError(
                reason: "Scripts/postgres.sh \(arguments.first ?? "") failed (status \(status)):\n\(complaints)"
            ))
        }
        return .success(printed.split(separator: "\n").last.map(String.init) ?? "")
    }

    private static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// A primary and a hot-standby replica of its own, streaming on loopback
/// (Scripts/postgres.sh start + replica), stopped and removed on deinit.
public final class ReplicatedClusters {
    public let primaryURL: String
    public let replicaURL: String
    private let directory: String

    public init() throws {
        try PostgresTestServer.installation.get()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-replica-\(UUID().uuidString.prefix(8))").path
        primaryURL = try PostgresTestServer.script(["start", directory + "/primary"]).get()
        do {
            replicaURL = try PostgresTestServer.script(["replica", directory + "/primary", directory + "/replica"]).get()
        } catch {
            _ = PostgresTestServer.script(["stop", directory + "/primary"])
            throw error
        }
    }

    deinit {
        _ = PostgresTestServer.script(["stop", directory + "/replica"])
        _ = PostgresTestServer.script(["stop", directory + "/primary"])
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Why the PostgreSQL tests have no server, and how to give them one.
public struct PostgresTestServerError: Error, CustomStringConvertible {
    public var reason: String
    /// The reason already says how to give them a server, in one line.
    var isWholeMessage = false

    public var description: String {
        if isWholeMessage { return reason }
        return """
        The PostgreSQL tests need a server. \(reason)
        Either install PostgreSQL (Debian: `apt-get install -y postgresql postgresql-contrib`; the tests then start \
        a throwaway cluster with Scripts/postgres.sh), or point them at a server where they may create schemas:
        TESSERA_POSTGRES_URL=postgres://user:password@127.0.0.1:5432/dbname swift test --traits PostgreSQL
        """
    }
}
