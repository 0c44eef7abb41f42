import TesseraStore
import TesseraLayout

extension LayoutStore {
    /// Opens the PostgreSQL store at `url`, creating its schema if needed.
    ///
    /// `url` is `postgres://user[:password]@host[:port]/dbname` (or
    /// `postgresql://`); `?schema=name` keeps the store in another
    /// PostgreSQL schema than `tessera` (one database can hold several
    /// stores), a host that is a folder (`?host=/run/postgresql`, or
    /// percent-encoded) connects through the server's Unix socket, and
    /// `?freshness=notified` keeps resolved layouts until the store's
    /// channel announces a commit (see below).
    ///
    /// Every machine that opens the same URL shares the store: writers of
    /// one spec wait for each other (an advisory lock per spec), writers of
    /// different specs do not, and every read answers from one snapshot that
    /// includes every write committed before it began.
    ///
    /// With `?freshness=notified`, the store keeps one more connection that
    /// listens for the store's commits (every write notifies, by trigger):
    /// a warm query then sends no statement at all, and sees a commit made
    /// elsewhere once its notification has arrived (this process's own
    /// commits at once). A hot standby cannot listen: there the URL is
    /// refused with code `unsupported`.
    ///
    /// - Throws: `StoreError` with code `invalidArgument` for a URL that does
    ///   not parse, `io` when the server cannot be reached or refuses the
    ///   user, `notAStore` for a schema that holds other tables,
    ///   `schemaTooNew` for a store of a newer Tessera.
    /// - Parameters:
    ///   - url: the server, database and schema of the store (above).
    ///   - registry: the layout kinds stored specs may name.
    ///   - maximumReaders: the most connections reading at once; more
    ///     concurrent reads wait for one to be free.
    ///   - cacheBudget: bytes of the one cache the store's readers share in
    ///     memory for resolved names and layout directories (see `LayoutStore(path:)`).
    ///   - frameCacheBudget: bytes the same cache may take on top for cells'
    ///     frames (see `LayoutStore.defaultFrameCacheBudget`): a query whose frames
    ///     are cached sends one statement, the layout's row, whose revision
    ///     tells that the cached directory and frames are still the stored ones.
    ///   - busyTimeout: how long (seconds) a write waits for another writer
    ///     of the same spec before failing with code `busy`.
    ///   - readOnly: connects without creating or migrating anything; every
    ///     write fails with code `readOnly` (for hot-standby replicas).
    ///   - executor: where the store's async calls run what blocks (see
    ///     `BlockingExecutor`); nil: threads of the store's own.
    public convenience init(
        url: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 8,
        cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget,
        busyTimeout: Double = 120,
        readOnly: Bool = false,
        executor: (any BlockingExecutor)? = nil
    ) async throws {
        try await self.init(
            url: url, registry: registry, maximumReaders: maximumReaders, cacheBudget: cacheBudget,
            frameCacheBudget: frameCacheBudget, busyTimeout: busyTimeout, readOnly: readOnly, loadsDirectoriesInline: false, executor: executor
        )
    }

    /// The same, for this package's tools (see `LayoutStore.loadsDirectoriesInline`).
    package convenience init(
        url: String,
        registry: LayoutRegistry = .standard,
        maximumReaders: Int = 8,
        cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget,
        busyTimeout: Double = 120,
        readOnly: Bool = false,
        loadsDirectoriesInline: Bool,
        executor: (any BlockingExecutor)? = nil
    ) async throws {
        let storage = try await PostgresStorage(
            url: try PostgresURL(parsing: url), maximumReaders: maximumReaders, busyTimeout: busyTimeout, readOnly: readOnly
        )
        self.init(
            backend: storage, location: storage.location, registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget,
            loadsDirectoriesInline: loadsDirectoriesInline, executor: executor,
            nameConflicts: try await storage.nameConflicts()
        )
    }
}

extension LayoutStore {
    /// Fails unless `url` names an existing store (of this schema version or
    /// an older one a writable open migrates): `notFound` for a database or
    /// schema without one. Writes nothing.
    package static func requireExistingPostgresStore(url: String) async throws {
        do {
            // Whether it exists, not whether it can be listened to.
            var parsed = try PostgresURL(parsing: url)
            parsed.freshness = .snapshot
            try await PostgresStorage(url: parsed, maximumReaders: 1, busyTimeout: 1, readOnly: true).close()
        } catch let error as StoreError where error.code == .readOnly {
            // An older schema version: it exists.
        }
    }

    /// Runs SQL statements on the store's rows in one transaction, on the
    /// writer's connection: for this package's tests, which damage rows or
    /// stand in for another program, and for the PostgreSQL benchmark
    /// (`@_spi(Testing) import TesseraPostgres`).
    @_spi(Testing) public func executePostgres(_ script: String) async throws {
        guard let storage = backend as? PostgresStorage else {
            throw StoreError(.unsupported, "\(location.quotedForMessage) is not a PostgreSQL store", store: location)
        }
        try await storage.execute(script: script)
    }
}

extension LayoutStore {
    /// Statements the store's PostgreSQL sessions sent so far; nil for
    /// another backend (for tests of how many statements a read takes).
    @_spi(Testing) public var postgresStatementsSent: Int? { (backend as? PostgresStorage)?.statementsSent }
}
