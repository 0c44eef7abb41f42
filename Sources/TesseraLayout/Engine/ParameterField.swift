/// One parameter of a layout kind: its key in the layout object, the stored
/// property it fills, and how it is read (with its rule) and written.
///
/// A kind lists its parameters once, in the order of its layout object, and
/// both `init(parameters:)` and `parameters` use that list:
///
/// ```swift
/// static let parameterFields: [ParameterField<Self>] = [
///     .integer("fraction", \.fraction),
///     .number("aspectRatio", \.aspectRatio, rule: .positive),
/// ]
/// ```
///
/// Defaults are not part of the list: reading starts from the value that the
/// kind's Swift initialiser makes with its default arguments, and a parameter
/// that is absent or null keeps that value.
package struct ParameterField<Layout>: Sendable {
    /// The parameter's key in the layout object.
    package let key: String
    fileprivate let readInto: @Sendable (LayoutParameters, inout Layout) throws -> Void
    fileprivate let writeValue: @Sendable (Layout) -> JSONValue

    /// A parameter read by `read` (nil when absent or null) and written by `write`.
    private init<Value>(
        _ key: String,
        _ property: WritableKeyPath<Layout, Value> & Sendable,
        required: Bool,
        read: @escaping @Sendable (LayoutParameters) throws -> Value?,
        write: @escaping @Sendable (Value) -> JSONValue
    ) {
        self.key = key
        readInto = { parameters, layout in
            if let value = try read(parameters) {
                layout[keyPath: property] = value
            } else if required {
                throw parameters.path.appending(key).error("is required")
            }
        }
        writeValue = { layout in write(layout[keyPath: property]) }
    }

    /// A finite number that keeps `rule`.
    package static func number(
        _ key: String,
        _ property: WritableKeyPath<Layout, Double> & Sendable,
        rule: LayoutParameters.NumberRule = .nonNegative,
        required: Bool = false
    ) -> Self {
        Self(key, property, required: required, read: { try $0.number(key, rule: rule) }, write: { .number($0) })
    }

    /// An integer of at least 1.
    package static func integer(_ key: String, _ property: WritableKeyPath<Layout, Int> & Sendable, required: Bool = false) -> Self {
        Self(key, property, required: required, read: { try $0.integer(key) }, write: { .number(Double($0)) })
    }

    /// A [width, height] pair of numbers that are not negative.
    package static func size(_ key: String, _ property: WritableKeyPath<Layout, Size> & Sendable) -> Self {
        Self(key, property, required: false, read: { try $0.size(key) }, write: { .array([.number($0.width), .number($0.height)]) })
    }

    /// A boolean.
    package static func bool(_ key: String, _ property: WritableKeyPath<Layout, Bool> & Sendable) -> Self {
        Self(key, property, required: false, read: { try $0.bool(key) }, write: { .bool($0) })
    }

    /// A parameter of a shape of its own, read by `read` (nil when it is
    /// absent or null) and written by `write`.
    package static func custom<Value>(
        _ key: String,
        _ property: WritableKeyPath<Layout, Value> & Sendable,
        required: Bool = false,
        read: @escaping @Sendable (LayoutParameters) throws -> Value?,
        write: @escaping @Sendable (Value) -> JSONValue
    ) -> Self {
        Self(key, property, required: required, read: read, write: write)
    }

    /// One of an enumeration's raw values.
    package static func choice<Value: RawRepresentable<String> & CaseIterable & SendableMetatype>(
        _ key: String,
        _ property: WritableKeyPath<Layout, Value> & Sendable
    ) -> Self {
        Self(
            key, property, required: false,
            read: { try $0.string(key, oneOf: Value.allCases.map(\.rawValue)).flatMap(Value.init(rawValue:)) },
            write: { .string($0.rawValue) }
        )
    }
}

extension Array {
    /// Reads each parameter that `parameters` holds into `layout`, in order;
    /// one that is absent or null keeps `layout`'s value.
    /// - Throws: ``SpecError`` for the first parameter, in order, that breaks
    ///   its rule or is required and absent.
    package func read<Layout>(_ parameters: LayoutParameters, into layout: inout Layout) throws
    where Element == ParameterField<Layout> {
        for field in self { try field.readInto(parameters, &layout) }
    }

    /// Appends each parameter of `layout` to `object`, in order.
    package func write<Layout>(_ layout: Layout, into object: inout JSONObject) where Element == ParameterField<Layout> {
        for field in self { object[field.key] = field.writeValue(layout) }
    }

    /// The parameters of `layout`, in order.
    package func json<Layout>(of layout: Layout) -> JSONObject where Element == ParameterField<Layout> {
        var object = JSONObject()
        write(layout, into: &object)
        return object
    }
}
