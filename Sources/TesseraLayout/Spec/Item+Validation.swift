/// Validated reads of item fields, for layout kinds. Each throws an error
/// naming the item's path and the field when the value breaks a rule.
extension Item {
    private func checkWellFormed(_ field: Field, _ location: ItemLocation) throws {
        if let problem = malformed?[field] { throw location.error(field, problem.reason) }
    }

    /// A positive integer field (columns, rows, scale, fraction), or nil.
    public func positiveInteger(_ field: Field, at location: ItemLocation) throws -> Int? {
        try checkWellFormed(field, location)
        let value: Int? = switch field {
        case .fraction: fraction
        case .scale: scale
        case .columns: columns
        case .rows: rows
        default: nil
        }
        guard let value else { return nil }
        if value < 1 { throw location.error(field, "must be at least 1, got \(value)") }
        return value
    }

    /// The aspect ratio, which must be finite and above zero, or nil.
    public func validAspectRatio(at location: ItemLocation) throws -> Double? {
        try checkWellFormed(.aspectRatio, location)
        guard let aspectRatio else { return nil }
        if !aspectRatio.isFinite || aspectRatio <= 0 {
            throw location.error(.aspectRatio, "must be a finite number above 0, got \(JSONWriter.format(aspectRatio))")
        }
        return aspectRatio
    }

    /// The length along the scroll axis, finite and not negative, or nil.
    public func validLength(at location: ItemLocation) throws -> Double? {
        try checkWellFormed(.length, location)
        guard let length else { return nil }
        if !length.isFinite || length < 0 {
            throw location.error(.length, "must be a finite number of at least 0, got \(JSONWriter.format(length))")
        }
        return length
    }

    /// The on-screen size, both lengths finite and not negative, or nil.
    public func validSize(at location: ItemLocation) throws -> Size? {
        try checkWellFormed(.size, location)
        guard let size else { return nil }
        for length in [size.width, size.height] where !length.isFinite || length < 0 {
            throw location.error(.size, "lengths must be finite and at least 0, got \(JSONWriter.format(length))")
        }
        return size
    }

    /// The canBeBig flag, or nil.
    public func validCanBeBig(at location: ItemLocation) throws -> Bool? {
        try checkWellFormed(.canBeBig, location)
        return canBeBig
    }
}
