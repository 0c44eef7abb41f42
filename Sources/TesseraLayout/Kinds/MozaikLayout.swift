/// `mozaik`: not implemented yet (work in progress).
public struct MozaikLayout: SectionLayout, Hashable {
    public static let kind = "mozaik"

    public init(parameters: LayoutParameters) throws {
        throw parameters.path.appending("kind").error("the mozaik kind is not implemented yet")
    }

    public var kind: String { Self.kind }
    public var parameters: JSONObject { JSONObject() }

    public func makePlacer(in context: SectionContext) throws -> any ItemPlacer {
        throw context.layoutPath.error("the mozaik kind is not implemented yet")
    }
}
