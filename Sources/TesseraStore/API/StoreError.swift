import TesseraLayout

/// Every failure of a ``LayoutStore``: a ``code`` a program switches on
/// (an HTTP handler picks its status from it), a sentence for people, what
/// it concerns (store, spec, extent, section, item, JSON path) and the
/// underlying error of the backend or the engine, kept as its ``cause``.
///
/// ```swift
/// do {
///     let elements = try await store.visibleElements(name: "home", crossExtent: 390, viewport: rect)
/// } catch let error as StoreError where error.code == .notFound {
///     // 404
/// }
/// ```
///
/// Refusals at open happen before anything is written: the file is left
/// exactly as it was found.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A spec or item breaks a rule of the spec format; ``StoreError/path``
        /// names where when it is known.
        case invalidSpec
        /// An argument the store cannot take as given: an extent that is not
        /// a finite number above 0, a spec without a name.
        case invalidArgument
        /// No such spec, layout, section or item.
        case notFound
        /// The layout changed under the request again and again, the
        /// items files of a spec changed since it was saved (save or
        /// retry), or a merge met two specs of one name (`LayoutStore.merge(from:replacing:progress:)` of `TesseraPrecompute`).
        case conflict
        /// Another writer kept the store past the busy timeout.
        case busy
        /// The request was cancelled before it finished; nothing was written.
        case cancelled
        /// An answer would hold more elements than the caller allowed (its
        /// cause, ``AnswerTooLarge``, says how many and how to ask for less).
        case tooLarge
        /// Stored data cannot be read back: the store is damaged.
        case damaged
        /// The file is not a Tessera store (not a database, or another
        /// application's); it was not changed.
        case notAStore
        /// The store was written by a newer Tessera; it was not changed.
        case schemaTooNew
        /// The database library or file system lacks a feature the store needs.
        case unsupported
        /// The store or its folder cannot be written.
        case readOnly
        /// The disk is full.
        case diskFull
        /// Another input or output failure.
        case io
        /// A failure the store did not expect: a bug, reported as such.
        case `internal`
        /// The store was closed (``LayoutStore/close()``); open it again to use it.
        case closed
    }

    /// What kind of failure this is.
    public var code: Code
    /// The sentence for people (``description``).
    public var message: String
    /// The store's path or URL, when the failure concerns the store itself.
    public var store: String?
    /// The spec name the failure concerns.
    public var spec: String?
    /// The cross extent (width of a vertical spec) the failure concerns.
    public var crossExtent: Double?
    /// The section the failure concerns.
    public var section: Int?
    /// The item the failure concerns.
    public var item: Int?
    /// The JSON path of a spec error (`sections[2].items[17].columns`).
    public var path: String?
    /// The error of the backend (the database's code and message) or of the engine
    /// (`SpecError`) that this one reports.
    public var cause: (any Error & Sendable)?

    public init(
        _ code: Code, _ message: String, store: String? = nil, spec: String? = nil, crossExtent: Double? = nil,
        section: Int? = nil, item: Int? = nil, path: String? = nil, cause: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.store = store
        self.spec = spec
        self.crossExtent = crossExtent
        self.section = section
        self.item = item
        self.path = path
        self.cause = cause
    }

    public var description: String { message }

    /// Equal when everything but the cause is equal.
    public static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.store == rhs.store && lhs.spec == rhs.spec
            && lhs.crossExtent == rhs.crossExtent && lhs.section == rhs.section && lhs.item == rhs.item && lhs.path == rhs.path
    }
}
