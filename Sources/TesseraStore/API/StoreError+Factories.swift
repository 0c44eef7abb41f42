import TesseraLayout

/// The store's errors, each with its code and sentence in one place.
extension StoreError {
    /// A read or write after ``LayoutStore/close()``.
    package static func closed(store: String) -> StoreError {
        StoreError(.closed, "the store \(store.quotedPathForMessage) was closed; open it again to use it", store: store)
    }

    /// No spec is stored under `name`.
    package static func noSuchSpec(name: String) -> StoreError {
        StoreError(.notFound, "no spec named \(name.quotedForMessage) is stored; save or precompute it first", spec: name)
    }

    /// The spec has no fresh layout at `crossExtent`, and the caller asked the store not to compute one.
    static func notComputed(name: String, crossExtent: Double) -> StoreError {
        StoreError(.notFound, "spec \(name.quotedForMessage) has no layout at \(JSONWriter.format(crossExtent)): it is missing or stale, "
                   + "and this query may not compute it", spec: name, crossExtent: crossExtent)
    }

    /// The spec has no section `section`.
    package static func noSuchSection(name: String, section: Int, count: Int) -> StoreError {
        StoreError(.notFound, "spec \(name.quotedForMessage) has no section \(section) (it has \(count))", spec: name, section: section)
    }

    /// A spec or item that breaks a rule of the format, from the engine.
    package static func invalidSpec(_ error: SpecError, name: String? = nil) -> StoreError {
        StoreError(.invalidSpec, error.description, spec: name, path: error.path.isEmpty ? nil : error.path, cause: error)
    }

    /// A file a read-only open refuses: `what` it is instead; it was not changed.
    package static func notATesseraStore(path: String, _ what: String) -> StoreError {
        StoreError(.notAStore, "\(path.quotedPathForMessage) is not a Tessera store (\(what)). Tessera did not change it.", store: path)
    }

    /// The store has a schema version this build does not know.
    package static func schemaTooNew(path: String, found: Int, supported: Int) -> StoreError {
        StoreError(.schemaTooNew, "\(path.quotedPathForMessage) has Tessera schema version \(found), but this build knows versions "
            + "up to \(supported): it was written by a newer Tessera. Tessera did not change it. "
            + "Upgrade Tessera to open it.", store: path)
    }

    /// Stored data that cannot be read back.
    package static func damaged(store: String, spec: String? = nil, crossExtent: Double? = nil, _ what: String) -> StoreError {
        let place = if let spec, let crossExtent { "spec \(spec.quotedForMessage) at \(JSONWriter.format(crossExtent)): " } else { "" }
        return StoreError(.damaged, "the store \(store.quotedPathForMessage) is damaged: \(place)\(what)", store: store, spec: spec, crossExtent: crossExtent)
    }

    /// This error, if it reports damage found without knowing which layout
    /// was read, as damage to the layout of `name` at `crossExtent`.
    package func inLayout(name: String, crossExtent: Double) -> StoreError {
        guard code == .damaged, spec == nil, let store else { return self }
        let prefix = "the store \(store.quotedPathForMessage) is damaged: "
        let what = message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
        var error = StoreError.damaged(store: store, spec: name, crossExtent: crossExtent, what)
        error.cause = cause
        return error
    }

    /// A stored spec this program cannot read: it names a kind this
    /// program's registry does not have, or breaks a rule this version adds.
    package static func unreadableSpec(name: String, store: String, _ cause: any Error & Sendable) -> StoreError {
        StoreError(.unsupported, "the stored spec \(name.quotedForMessage) cannot be read by this program: \(cause)", store: store, spec: name, cause: cause)
    }
}
