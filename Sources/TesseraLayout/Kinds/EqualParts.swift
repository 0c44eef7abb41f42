/// `count` equal parts across an extent with spacing between adjacent
/// parts: a grid's items, a staggered layout's columns, a pattern block's
/// units.
enum EqualParts {
    /// (available − (count−1)·spacing)/count, after checking that the
    /// spacing alone fits the available extent.
    ///
    /// - Parameters:
    ///   - parts: what the parts are, for the error: "columns", "units", …
    ///   - gaps: what the spacing is, for the error: "spacing" or "gutters".
    ///   - path: where the error points (the parameter that asks for `count`).
    /// - Throws: "N parts need X points of spacing, more than the Y available".
    @inline(__always)
    static func length(
        count: Int,
        spacing: Double,
        available: Double,
        parts: String,
        gaps: String = "spacing",
        path: @autoclosure () -> JSONPath
    ) throws -> Double {
        let total = Double(count - 1) * spacing
        if total > available {
            throw path().error(
                "\(count) \(parts) need \(JSONWriter.format(total)) points of \(gaps), more than the \(JSONWriter.format(available)) available"
            )
        }
        return (available - total) / Double(count)
    }
}
