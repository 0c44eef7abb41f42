import Testing
import TesseraTestSupport

/// What the PostgreSQL tests do when the server's programs are missing:
/// install them when they may (root, apt-get), else fail with one line
/// that says how to get a server. Decided without installing anything.
@Suite("PostgreSQL tests: installing the server when it is missing")
struct PostgresInstallPlanTests {
    @Test("found: nothing to install, whoever runs the tests")
    func found() {
        for isRoot in [false, true] {
            for hasAptGet in [false, true] {
                #expect(PostgresTestServer.installPlan(found: true, isRoot: isRoot, hasAptGet: hasAptGet) == .installed)
            }
        }
    }

    @Test("missing, run by root with apt-get: installed through Scripts/postgres.sh install")
    func installable() {
        #expect(PostgresTestServer.installPlan(found: false, isRoot: true, hasAptGet: true) == .install)
    }

    @Test("missing, and not installable: one line saying why and how to get a server", arguments: [(false, true), (false, false), (true, false)])
    func notInstallable(isRoot: Bool, hasAptGet: Bool) throws {
        let plan = PostgresTestServer.installPlan(found: false, isRoot: isRoot, hasAptGet: hasAptGet)
        guard case .cannotInstall(let line) = plan else {
            Issue.record("expected a message, got \(plan)")
            return
        }
        #expect(!line.contains("\n"))
        #expect(line.contains(isRoot ? "there is no apt-get" : "they do not run as root"), "\(line)")
        #expect(line.contains("sudo bash Scripts/postgres.sh install"))
        #expect(line.contains("TESSERA_POSTGRES_URL="))
    }
}
