import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

extension LayoutStore {
    /// The fresh layout of the spec stored as `name`, at the cross extent
    /// `extent` gives for that spec's axis. A layout missing or stale there
    /// is computed and stored first, and `command` says so on standard
    /// error: a read that writes to the store, and may take a while, should
    /// not pass unnoticed.
    func freshLayout(name: String, extent: ExtentOptions, command: String) async throws -> StoredLayout {
        let result = try await reportingErrors {
            let axis = try await requiredSpec(named: name).axis
            return try await self.layout(name: name, crossExtent: try extent.crossExtent(for: axis))
        }
        let layout = result.layout
        if result.computed {
            printError("\(command): the layout of \"\(name)\" at \(JSONWriter.format(layout.crossExtent)) was missing or stale; computed and stored it")
        }
        return layout
    }

    /// What the store holds of the spec named `name`; a missing one is an error.
    func requiredSpec(named name: String) async throws -> StoredSpec {
        guard let spec = try await storedSpec(named: name) else { throw StoreError.noSuchSpec(name: name) }
        return spec
    }
}

/// "1 item", "2 items" (or the plural given).
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
