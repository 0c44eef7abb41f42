import Testing
import TesseraBackends
import TesseraLayout
import TesseraStore

/// What `--db` names: a file, or a PostgreSQL URL, whichever backends the
/// build has.
@Suite("--db: a file path or a PostgreSQL URL")
struct StoreLocationTests {
    @Test("a postgres:// or postgresql:// prefix in any case is a URL; anything else a file")
    func kinds() throws {
        #expect(try StoreLocation(parsing: "POSTGRES://app@h/d") == .postgres(url: "POSTGRES://app@h/d"))
        #expect(try StoreLocation(parsing: "postgresql://app@h/d") == .postgres(url: "postgresql://app@h/d"))
        #expect(try StoreLocation(parsing: "feeds.sqlite") == .file(path: "feeds.sqlite"))
        #expect(try StoreLocation(parsing: "postgres.sqlite") == .file(path: "postgres.sqlite"))
    }

    #if PostgreSQL
    @Test("a malformed URL is refused before anything connects, naming what is wrong")
    func malformedURL() async throws {
        let error = await #expect(throws: StoreError.self) { _ = try await LayoutStore.open(db: "postgres://app:pw@h:0/d") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("a port is a number from 1 to 65535") == true, "\(String(describing: error))")
        #expect(error?.message.contains(":pw@") == false)
    }
    #else
    @Test("a build without PostgreSQL refuses a URL, saying how to build one that opens it, never showing the password")
    func noPostgreSQL() async throws {
        let url = "postgres://app:pw@db.internal:6432/feeds"
        let opens: [() async throws -> Void] = [{ _ = try await LayoutStore.open(db: url) }, { try await LayoutStore.requireExisting(db: url) }]
        for open in opens {
            let error = await #expect(throws: StoreError.self) { try await open() }
            #expect(error?.code == .unsupported)
            #expect(error?.message == #""postgres://app:***@db.internal:6432/feeds" is a PostgreSQL store, and this build has no "#
                + "PostgreSQL backend: build with `swift build --traits PostgreSQL`")
            #expect(error?.store == "postgres://app:***@db.internal:6432/feeds")
        }
    }
    #endif
}
