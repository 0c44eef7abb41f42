/// A layout whose parameters depend on the container's cross extent: the
/// contract's "Breakpoints", for every kind.
///
/// In a spec, a layout object carries
/// `"breakpoints": [{"minExtent": E, …parameters}, …]`: at cross extent X the
/// parameters are the base object's, overridden field by field by each
/// breakpoint whose `minExtent` ≤ X, in array order. ``LayoutRegistry``
/// reads such an object into a `BreakpointLayout` whose ``base`` and each
/// ``Breakpoint/layout`` are configured kinds, every one validated when the
/// spec is read; errors name the breakpoint that set the value
/// (`sections[0].layout.breakpoints[1].columns`).
///
/// From Swift, give each breakpoint the whole layout that applies from its
/// extent on:
///
/// ```swift
/// let layout = BreakpointLayout(base: StaggeredLayout(columns: 2), breakpoints: [
///     .init(minExtent: 600, layout: StaggeredLayout(columns: 3)),
///     .init(minExtent: 1024, layout: StaggeredLayout(columns: 5, itemSpacing: 8)),
/// ])
/// ```
///
/// A store keeps one layout per cross extent, so each extent is laid out
/// with its own parameters (``resolved(crossExtent:)``), and a change to the
/// breakpoints recomputes only the extents whose parameters it changes.
public struct BreakpointLayout: SectionLayout {
    /// The parameters from one cross extent on.
    public struct Breakpoint: Sendable {
        /// The smallest cross extent the breakpoint applies to (finite, ≥ 0).
        public var minExtent: Double
        /// The layout from `minExtent` on, up to the next breakpoint's: the
        /// base's parameters overridden by this breakpoint's and every
        /// earlier one's. Of the base's kind.
        public var layout: any SectionLayout

        /// The layout `layout` from cross extent `minExtent` on.
        public init(minExtent: Double, layout: any SectionLayout) {
            self.minExtent = minExtent
            self.layout = layout
        }
    }

    /// The layout below the first breakpoint's `minExtent`.
    public var base: any SectionLayout
    /// The breakpoints, by strictly ascending `minExtent`.
    public var breakpoints: [Breakpoint]

    /// A layout that is `base`, and each breakpoint's layout from its
    /// `minExtent` on; checked when a section is laid out.
    public init(base: any SectionLayout, breakpoints: [Breakpoint]) {
        self.base = base
        self.breakpoints = breakpoints
    }

    /// The base's kind.
    public var kind: String { base.kind }

    /// The base's parameters and `breakpoints`: each breakpoint written as
    /// its `minExtent` and the parameters that differ from the set before
    /// it (null for one it resets to the kind's default), so that reading
    /// them back gives the same layouts.
    public var parameters: JSONObject {
        var object = base.parameters
        object["breakpoints"] = .array(zip(breakpoints, overrides).map { breakpoint, changes in
            var entry = JSONObject()
            entry["minExtent"] = .number(breakpoint.minExtent)
            for (key, value) in zip(changes.keys, changes.values) { entry[key] = value }
            return .object(entry)
        })
        return object
    }

    /// Each breakpoint's parameters that differ from the set before it.
    var overrides: [JSONObject] {
        var previous = base.parameters
        return breakpoints.map { breakpoint in
            let current = breakpoint.layout.parameters
            var changes = JSONObject()
            for (key, value) in zip(current.keys, current.values) where previous[key] != value { changes[key] = value }
            for key in previous.keys where current[key] == nil { changes[key] = .null }
            previous = current
            return changes
        }
    }

    /// The layout of the last breakpoint whose `minExtent` ≤ `crossExtent`,
    /// else the base.
    public func resolved(crossExtent: Double) -> any SectionLayout {
        breakpoints.last { $0.minExtent <= crossExtent }?.layout ?? base
    }

    /// The placer of the layout that applies at the context's container
    /// extent (a carousel's breakpoints follow the device, not its length).
    /// - Throws: ``SpecError`` for breakpoints that break a rule (a
    ///   `minExtent` not finite, negative or not ascending, a layout of
    ///   another kind), or the resolved layout's error, named at the
    ///   breakpoint that set the parameter at fault.
    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        let path = context.layoutPath
        try validate(at: path)
        let count = breakpoints.lastIndex { $0.minExtent <= context.containerExtent }.map { $0 + 1 } ?? 0
        do {
            return try resolved(crossExtent: context.containerExtent).makePlacer(in: context)
        } catch let error as SpecError {
            throw Self.relocating(error, layoutPath: path, overrides: overrides, count: count)
        }
    }

    /// The rules a Swift-built layout may break (one read from JSON keeps
    /// them already).
    private func validate(at path: JSONPath) throws {
        var previous: Double?
        for (index, breakpoint) in breakpoints.enumerated() {
            let entryPath = path.appending("breakpoints").appending(index)
            try Self.checkMinExtent(breakpoint.minExtent, after: previous, at: entryPath.appending("minExtent"))
            if breakpoint.layout.kind != base.kind {
                throw entryPath.error("must be a layout of the base's kind \(base.kind.quotedForMessage), got \(breakpoint.layout.kind.quotedForMessage)")
            }
            previous = breakpoint.minExtent
        }
    }

    /// Checks a breakpoint's `minExtent`: finite, not negative, and above
    /// the previous breakpoint's.
    static func checkMinExtent(_ minExtent: Double, after previous: Double?, at path: JSONPath) throws {
        try LayoutParameters.check(minExtent, rule: .nonNegative, at: path)
        if let previous, minExtent <= previous {
            throw path.error(
                "must be above the previous breakpoint's minExtent (\(JSONWriter.format(previous))), got \(JSONWriter.format(minExtent)): breakpoints ascend strictly"
            )
        }
    }

    /// `error` moved from a parameter of the layout object at `layoutPath`
    /// to the breakpoint that set that parameter last, among the first
    /// `count` of `overrides` (each breakpoint's parameters); unchanged
    /// when the base set it, or when it names no parameter.
    static func relocating(_ error: SpecError, layoutPath: JSONPath, overrides: [JSONObject], count: Int) -> SpecError {
        for index in stride(from: min(count, overrides.count) - 1, through: 0, by: -1) {
            for key in overrides[index].keys {
                let keyText = layoutPath.appending(key).description
                guard error.path.hasPrefix(keyText) else { continue }
                let rest = error.path.dropFirst(keyText.count)
                guard rest.isEmpty || rest.hasPrefix(".") || rest.hasPrefix("[") else { continue }
                var moved = error
                moved.path = layoutPath.appending("breakpoints").appending(index).appending(key).description + rest
                return moved
            }
        }
        return error
    }
}
