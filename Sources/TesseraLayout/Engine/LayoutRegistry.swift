/// The layout kinds a spec may name, by their `kind` string.
///
/// ``standard`` knows the seven kinds of the contract. Add your own with
/// ``register(_:factory:)``: the factory reads the layout object's parameters
/// and returns your ``SectionLayout``.
public struct LayoutRegistry: Sendable {
    /// Reads a layout object into a configured kind.
    public typealias Factory = @Sendable (LayoutParameters) throws -> any SectionLayout

    private var factories: [String: Factory] = [:]

    /// A registry with no kinds.
    public init() {}

    /// The seven kinds of the contract.
    public static let standard: LayoutRegistry = {
        var registry = LayoutRegistry()
        registry.register(FlowLayout.kind, factory: FlowLayout.init(parameters:))
        registry.register(GridLayout.kind, factory: GridLayout.init(parameters:))
        registry.register(ScaledGridLayout.kind, factory: ScaledGridLayout.init(parameters:))
        registry.register(MozaikLayout.kind, factory: MozaikLayout.init(parameters:))
        registry.register(PatternLayout.kind, factory: PatternLayout.init(parameters:))
        registry.register(StaggeredLayout.kind, factory: StaggeredLayout.init(parameters:))
        registry.register(MosaicLayout.kind, factory: MosaicLayout.init(parameters:))
        return registry
    }()

    /// Adds or replaces a kind.
    public mutating func register(_ kind: String, factory: @escaping Factory) {
        factories[kind] = factory
    }

    /// The names of the kinds, sorted.
    public var kinds: [String] { factories.keys.sorted() }

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
        if let breakpoints = object["breakpoints"], breakpoints != .null {
            return try BreakpointLayout.read(object: object, path: path, factory)
        }
        return try factory(LayoutParameters(object: object, path: path))
    }
}
