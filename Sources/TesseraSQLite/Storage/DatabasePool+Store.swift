import SQLiteToolkit
import TesseraStore

extension DatabasePool {
    /// Opens (creating if needed) and migrates the Tessera store at `path`,
    /// or, when `configuration.readOnly`, opens an existing store without
    /// writing anything (see `Migrator.openReadOnly(at:options:)`). Every
    /// connection of the pool has the store's SQL functions
    /// (`Connection.Options.forStore`).
    ///
    /// - Throws: `StoreError` when the file is refused (it is then left
    ///   untouched) or SQLite fails to open it.
    package convenience init(path: String, configuration: Configuration = Configuration(), migrator: Migrator = Migrator()) throws {
        var configuration = configuration
        configuration.connection = configuration.connection.forStore
        let readOnly = configuration.readOnly
        try self.init(path: path, configuration: configuration) { path, options in
            readOnly ? try migrator.openReadOnly(at: path, options: options) : try migrator.openDatabase(at: path, options: options)
        }
    }
}
