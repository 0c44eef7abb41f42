import TesseraLayout
import TesseraStore

extension LayoutStore {
    /// A new, empty store whose rows live in memory: no file, nothing kept
    /// once the last store on its rows is gone. For tests of code that uses
    /// a store: it follows the rules of the file-backed one (freshness,
    /// incremental updates, snapshots, checksums verified on every read).
    ///
    /// ```swift
    /// let store = LayoutStore.inMemory()
    /// try await store.save(spec, as: "home", crossExtents: [390])
    /// ```
    ///
    /// - Parameters:
    ///   - registry: the layout kinds stored specs may name.
    ///   - cacheBudget: bytes of the one cache the store's readers share for
    ///     resolved names and directories (see `LayoutStore.defaultCacheBudget`).
    ///   - frameCacheBudget: bytes the same cache may take on top for
    ///     verified frames (see `LayoutStore.defaultFrameCacheBudget`).
    public static func inMemory(
        registry: LayoutRegistry = .standard, cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget
    ) -> LayoutStore {
        inMemory(database: InMemoryDatabase(), registry: registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget)
    }

    /// Another store on the rows of `store`, a store opened with
    /// ``inMemory(registry:cacheBudget:frameCacheBudget:)``: with its
    /// registry and caches of its own, it sees every commit of the other as
    /// a second process sees a file's, and closing one leaves the other open.
    ///
    /// - Throws: `StoreError` with code `invalidArgument` when `store`
    ///   keeps its rows elsewhere (a file, a server).
    public static func inMemory(
        sharingRowsWith store: LayoutStore, cacheBudget: Int = LayoutStore.defaultCacheBudget,
        frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget
    ) throws -> LayoutStore {
        guard let database = store.inMemoryDatabase else {
            throw StoreError(.invalidArgument, "the store \(store.location.quotedPathForMessage) does not keep its rows in memory", store: store.location)
        }
        return inMemory(database: database, registry: store.registry, cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget)
    }

    /// A store on `database`, through the backend `wrap` makes of its
    /// handle (this package's tests count its reads).
    package static func inMemory(
        database: InMemoryDatabase, registry: LayoutRegistry, cacheBudget: Int, frameCacheBudget: Int = LayoutStore.defaultFrameCacheBudget,
        wrap: (InMemoryStorage) -> any InMemoryBackend = { $0 }
    ) -> LayoutStore {
        LayoutStore(
            backend: wrap(InMemoryStorage(database: database)), location: database.location, registry: registry,
            cacheBudget: cacheBudget, frameCacheBudget: frameCacheBudget
        )
    }

    /// The rows of a store opened in memory; nil for another backend's.
    package var inMemoryDatabase: InMemoryDatabase? {
        (backend as? any InMemoryBackend)?.database
    }
}

/// A backend over an ``InMemoryDatabase``: its handle, or a wrapper of it.
package protocol InMemoryBackend: StorageBackend {
    var database: InMemoryDatabase { get }
}

extension InMemoryStorage: InMemoryBackend {}
