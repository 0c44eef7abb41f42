import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL for the tests when it is missing: `Scripts/postgres.sh install`
/// runs when they may install it (as root, with apt-get), once per test
/// process, under a file lock that test processes running at once share
/// (apt-get takes one at a time). Otherwise the tests fail with one line
/// that says how to get a server.
extension PostgresTestServer {
    /// What to do about the server's programs (initdb, pg_ctl).
    public enum InstallPlan: Equatable, Sendable {
        /// They are found: nothing to install.
        case installed
        /// They are missing, and the tests may install them.
        case install
        /// They are missing, and the tests may not install them: the line that says how to get them.
        case cannotInstall(String)
    }

    /// The plan on a machine where the programs are `found` or not, for
    /// tests run by root or not, with apt-get or not.
    public static func installPlan(found: Bool, isRoot: Bool, hasAptGet: Bool) -> InstallPlan {
        if found { return .installed }
        if isRoot, hasAptGet { return .install }
        let why = isRoot ? "there is no apt-get" : "they do not run as root"
        return .cannotInstall(
            "The PostgreSQL tests need a server: PostgreSQL is not installed and the tests cannot install it (\(why)); "
                + "run `sudo bash Scripts/postgres.sh install` (Debian/Ubuntu), or install PostgreSQL otherwise, "
                + "or set TESSERA_POSTGRES_URL=postgres://user:password@host:port/dbname to a server where they may create schemas"
        )
    }

    /// The programs, installed when missing: once per test process.
    static let installation: Result<Void, PostgresTestServerError> = install()

    private static func install() -> Result<Void, PostgresTestServerError> {
        let found = if case .success = script(["installed"]) { true } else { false }
        switch installPlan(found: found, isRoot: getuid() == 0, hasAptGet: isOnPath("apt-get")) {
        case .installed:
            return .success(())
        case .cannotInstall(let line):
            return .failure(PostgresTestServerError(reason: line, isWholeMessage: true))
        case .install:
            // The script finds the programs another process installed while this one waited.
            return withInstallLock { script(["install"]).map { _ in () } }
        }
    }

    /// Runs `body` holding an exclusive lock on a file in the temporary folder.
    private static func withInstallLock<T>(_ body: () -> T) -> T {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-postgres-install.lock").path
        let descriptor = open(path, O_CREAT | O_RDWR, 0o666)
        guard descriptor >= 0 else { return body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return body()
    }

    /// Whether an executable `name` is in a folder of `PATH`.
    private static func isOnPath(_ name: String) -> Bool {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.contains { access("\($0)/\(name)", X_OK) == 0 }
    }
}
