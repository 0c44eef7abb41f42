import Testing
@_spi(Testing) import TesseraPostgres
@testable import TesseraStore

/// What a closed PostgreSQL store does with the calls that reach its
/// sessions without a read or a write of the store (its statements for
/// tests and tools, its size): its event loop is gone, so nothing may try
/// to connect on it.
@Suite("store: a closed PostgreSQL store opens no session")
struct PostgresCloseTests {
    @Test("statements and the size of a closed store fail with closed or answer 0, never hang or crash")
    func closedSessions() async throws {
        let scratch = try await TemporaryStore(.postgres)
        let store = try await scratch.reopen()
        try await store.executePostgres("SELECT 1")
        store.close()
        let refusal = try await #require(throws: StoreError.self) { try await store.executePostgres("SELECT 1") }
        #expect(refusal.code == .closed)
        #expect(await store.fileBytes == 0)
    }
}
