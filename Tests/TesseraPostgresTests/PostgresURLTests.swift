import Testing
import TesseraPostgres
import TesseraStore

/// `--db` as a PostgreSQL URL: what each part becomes, what is refused and
/// how, and the description that leaves the password out.
@Suite("PostgreSQL URLs for --db")
struct PostgresURLTests {
    @Test("every part of a URL, and the defaults")
    func parts() throws {
        let full = try PostgresURL(parsing: "postgresql://app:s%40cret@db.internal:6432/feeds?schema=layouts&freshness=notified")
        #expect(full.user == "app")
        #expect(full.password == "s@cret")
        #expect(full.host == "db.internal")
        #expect(full.port == 6432)
        #expect(full.database == "feeds")
        #expect(full.schema == "layouts")
        #expect(full.freshness == .notified)
        #expect(full.unixSocketPath == nil)
        #expect(full.description == "postgres://app@db.internal:6432/feeds?schema=layouts&freshness=notified")

        let plain = try PostgresURL(parsing: "postgres://app@localhost/feeds")
        #expect(plain.port == 5432 && plain.password == nil)
        #expect(plain.schema == "tessera" && plain.freshness == .snapshot)
        #expect(plain.description == "postgres://app@localhost:5432/feeds")

        let ipv6 = try PostgresURL(parsing: "postgres://app@[::1]:7000/feeds?freshness=snapshot")
        #expect(ipv6.host == "::1" && ipv6.port == 7000 && ipv6.freshness == .snapshot)
        #expect(ipv6.description == "postgres://app@[::1]:7000/feeds")

        let socket = try PostgresURL(parsing: "postgres://app@%2Frun%2Fpostgresql:5433/feeds")
        #expect(socket.unixSocketPath == "/run/postgresql/.s.PGSQL.5433")
        #expect(try PostgresURL(parsing: "postgres://app@x/feeds?host=/tmp/pg").unixSocketPath == "/tmp/pg/.s.PGSQL.5432")

        // A description parses back to the same URL, password aside.
        for url in [full, plain, ipv6, socket] {
            var withoutPassword = url
            withoutPassword.password = nil
            #expect(try PostgresURL(parsing: url.description) == withoutPassword)
        }
    }

    @Test("each malformed URL is refused naming what is wrong, never showing the password", arguments: [
        ("postgres:/app@h/d", "has no scheme"),
        ("postgres://app@h", "names no database"),
        ("postgres://h/d", "names no user"),
        ("postgres://:pw@h/d", "names no user"),
        ("postgres://app@h:0/d", "a port is a number from 1 to 65535"),
        ("postgres://app@h:5x/d", "a port is a number from 1 to 65535"),
        ("postgres://app@[::1/d", "has an unclosed [ in its host"),
        ("postgres://app@h/d?schema=1st", "a schema is 1 to 63 letters, digits or _"),
        ("postgres://app@h/d?schema=a-b", "a schema is 1 to 63 letters, digits or _"),
        ("postgres://app@h/d?freshness=eventual", "it is snapshot or notified"),
        ("postgres://app@h/d?sslmode=require", "Tessera knows schema, host and freshness"),
        ("postgres://app:pw@h/d%zz", "has a % not followed by two hexadecimal digits"),
        ("postgres://app:pw@/d", "names no host"),
    ])
    func refusals(url: String, reason: String) {
        let error = #expect(throws: StoreError.self) { try PostgresURL(parsing: url) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains(reason) == true, "\(String(describing: error?.message))")
        #expect(error?.message.contains(":pw@") == false, "\(String(describing: error?.message))")
    }
}
