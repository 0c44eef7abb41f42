/// The layout kinds a spec may name, by their `kind` string.
///
/// ``standard`` knows the seven kinds of the contract. Add your own with
/// ``register(_:keys:factory:)``: the factory reads the layout object's
/// parameters and returns your ``SectionLayout``; any other key in the
/// object (or in one of its breakpoints) is refused as unknown.
public struct LayoutRegistry: Sendable {
    /// Reads a layout object into a configured kind.
    public typealias Factory = @Sendable (LayoutParameters) throws -> any SectionLayout

    private var factories: [String: Factory] = [:]
    /// The parameter keys of each kind registered with them.
    private var parameterKeys: [String: [String]] = [:]

    /// A registry with no kinds.
    public init() {}

    /// The seven kinds of the contract.
    public static let standard: LayoutRegistry = {
        var registry = LayoutRegistry()
        registry.register(FlowLayout.kind, keys: FlowLayout.parameterFields.map(\.key), factory: FlowLayout.init(parameters:))
        registry.register(GridLayout.kind, keys: GridLayout.parameterFields.map(\.key), factory: GridLayout.init(parameters:))
        registry.register(ScaledGridLayout.kind, keys: ScaledGridLayout.parameterFields.map(\.key), factory: ScaledGridLayout.init(parameters:))
        registry.register(MozaikLayout.kind, keys: ["columns", "columnCount"] + MozaikLayout.parameterFields.map(\.key), factory: MozaikLayout.init(parameters:))
        registry.register(PatternLayout.kind, keys: ["blocks", "spacing"], factory: PatternLayout.init(parameters:))
        registry.register(StaggeredLayout.kind, keys: StaggeredLayout.parameterFields.map(\.key), factory: StaggeredLayout.init(parameters:))
        registry.register(MosaicLayout.kind, keys: MosaicLayout.parameterFields.map(\.key), factory: MosaicLayout.init(parameters:))
        return registry
    }()

    /// Adds or replaces a kind whose parameters are `keys`: a layout object
    /// of the kind may hold them, `kind` and `breakpoints`, and no other key.
    public mutating func register(_ kind: String, keys: [String], factory: @escaping Factory) {
        factories[kind] = factory
        parameterKeys[kind] = keys
    }

    /// Adds or replaces a kind whose parameters are the keys its layouts
    /// write back (``SectionLayout/parameters``).
    public mutating func register(_ kind: String, factory: @escaping Factory) {
        factories[kind] = factory
        parameterKeys[kind] = nil
    }

    /// The names of the kinds, sorted.
    public var kinds: [String] { factories.keys.sorted() }

    /// The parameter keys `kind` was registered with; nil for a kind
    /// registered without them (or not registered).
    package func parameterKeys(of kind: String) -> [String]? {
        parameterKeys[kind]
    }

    /// Reads a layout object (`{"kind": "flow", ...}`). One with
    /// `breakpoints` is read into a ``BreakpointLayout``, every parameter
    /// set it can produce validated.
    public func layout(from json: JSONValue, path: JSONPath) throws -> any SectionLayout {
        guard case .object(let object) = json else {
            throw path.error("must be an object with a \"kind\", got \(json.typeName)")
        }
        guard let kindValue = object["kind"], kindValue != .null else {
            throw path.appending("kind").error("is required (one of \(kinds.joined(separator: ", ")))")
        }
        guard case .string(let kind) = kindValue else {
            throw path.appending("kind").error("must be a string, got \(kindValue.typeName)")
        }
        guard let factory = factories[kind] else {
            throw path.appending("kind").error("unknown kind \(kind.quotedForMessage) (known: \(kinds.joined(separator: ", ")))")
        }
        let keys = parameterKeys[kind]
        if let keys { try LayoutParameters(object: object, path: path).refuseUnknownKeys(["kind", "breakpoints"] + keys) }
        if let breakpoints = object["breakpoints"], breakpoints != .null {
            return try BreakpointLayout.read(object: object, path: path, keys: keys, factory)
        }
        let layout = try factory(LayoutParameters(object: object, path: path))
        if keys == nil { try LayoutParameters(object: object, path: path).refuseUnknownKeys(["kind"] + layout.parameters.keys) }
        return layout
    }
}
