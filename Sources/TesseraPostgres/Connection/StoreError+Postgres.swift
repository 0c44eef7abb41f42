import PostgresNIO
import TesseraStore

extension StoreError {
    /// A PostgreSQL failure on the store at `location`, in a sentence; the
    /// driver's error (with the server's SQLSTATE and message) stays in ``cause``.
    init(postgres error: any Error, location: String, connecting: Bool) {
        guard let error = error as? PSQLError else {
            self.init(.io, "the PostgreSQL store \(location.quotedForMessage) failed: \(error)", store: location, cause: error)
            return
        }
        let state = error.serverInfo?[.sqlState] ?? ""
        let message = error.serverInfo?[.message] ?? "\(error.code)"
        let (code, sentence): (Code, String)
        switch (error.code, state) {
        case (.server, "55P03"), (.server, "57014"):
            (code, sentence) = (.busy, "another writer kept the PostgreSQL store \(location.quotedForMessage) busy for longer than the busy timeout; try again")
        case (.server, "40001"), (.server, "40P01"):
            (code, sentence) = (.busy, "the PostgreSQL store \(location.quotedForMessage) stopped this write to let a concurrent one finish (\(message)); try again")
        case (.server, "53100"):
            (code, sentence) = (.diskFull, "the disk of the PostgreSQL server of \(location.quotedForMessage) is full; nothing was written")
        case (.server, let state) where state == "25006" || (state == "55000" && message.contains("recovery")):
            (code, sentence) = (.readOnly, "the PostgreSQL server of \(location.quotedForMessage) takes no writes (a hot-standby replica?); nothing was written")
        case (.server, "3D000"):
            (code, sentence) = (.notFound, "the PostgreSQL server has no database named in \(location.quotedForMessage)")
        case (.server, "28P01"), (.server, "28000"):
            (code, sentence) = (.io, "the PostgreSQL server refused the user of \(location.quotedForMessage): \(message)")
        case (.server, "42501"):
            (code, sentence) = (.readOnly, "the user of \(location.quotedForMessage) may not do this: \(message)")
        case (.server, "XX001"), (.server, "XX002"):
            (code, sentence) = (.damaged, "the PostgreSQL store \(location.quotedForMessage) is damaged: \(message)")
        case (.server, _):
            (code, sentence) = (.internal, "the PostgreSQL store \(location.quotedForMessage) failed unexpectedly: \(message) (SQLSTATE \(state))")
        case (.queryCancelled, _):
            (code, sentence) = (.cancelled, "the request on the PostgreSQL store \(location.quotedForMessage) was cancelled; nothing was written")
        default:
            (code, sentence) = connecting
                ? (.io, "cannot connect to the PostgreSQL server of \(location.quotedForMessage) (\(error.code)); is it running, and is the URL right?")
                : (.io, "the connection to the PostgreSQL server of \(location.quotedForMessage) failed (\(error.code)); nothing was written")
        }
        self.init(code, sentence, store: location, cause: error)
    }
}
