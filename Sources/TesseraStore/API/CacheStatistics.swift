/// What a store's one cache holds and how queries used it
/// (`LayoutStore.cacheStatistics`): the layouts resolved by name, the
/// layouts' directories, and their cell groups' verified frames.
public struct CacheStatistics: Sendable, Hashable {
    /// Bytes every entry takes together (an estimate from their arrays' sizes).
    public var bytes: Int
    /// The budget the cache stays within.
    public var budget: Int
    /// Layout directories cached.
    public var layouts: Int
    /// Queries that found their layout's directory cached.
    public var hits: Int
    /// Queries that did not (answered through the backend's index meanwhile).
    public var misses: Int
    /// Entries dropped to stay within the budget (a directory with its
    /// frames), and directories whose own frames were emptied to stay within it.
    public var evictions: Int
    /// Layouts cached as resolved by name.
    public var names: Int
    /// Queries that found their layout resolved by name, and that did not.
    public var nameHits: Int
    public var nameMisses: Int
    /// Cell groups whose verified frames the cached directories hold, and their bytes (part of ``bytes``).
    public var frameGroups: Int
    public var frameBytes: Int
    /// Cell groups a query found cached, and that it read from storage.
    public var frameHits: Int
    public var frameMisses: Int
}
