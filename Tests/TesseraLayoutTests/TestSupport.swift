import Testing
@testable import TesseraLayout

/// Lays out a spec written as JSON text at the given cross extent.
func layout(_ json: String, extent: Double) throws -> LayoutResult {
    try LayoutEngine().layout(Spec(jsonText: json), crossExtent: extent)
}

/// The cell frames of one section, in item order, as [x, y, w, h] arrays.
func cellFrames(_ result: LayoutResult, section: Int = 0) -> [[Double]] {
    result.elements(ofSection: section)
        .filter { $0.kind == .cell }
        .map { [$0.frame.x, $0.frame.y, $0.frame.width, $0.frame.height] }
}

/// The error a spec gives, as "path: reason" text, or nil when it lays out.
func specError(_ json: String, extent: Double = 390) -> SpecError? {
    do {
        _ = try layout(json, extent: extent)
        return nil
    } catch let error as SpecError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

/// Frames equal within a tolerance (for worked examples whose numbers are
/// written rounded); exact comparisons use `==` on the arrays directly.
func expectFrames(
    _ actual: [[Double]],
    _ expected: [[Double]],
    tolerance: Double = 1e-9,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(actual.count == expected.count, "frame count", sourceLocation: sourceLocation)
    for (index, (got, want)) in zip(actual, expected).enumerated() {
        let close = zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }
        #expect(close, "item \(index): got \(got), expected \(want)", sourceLocation: sourceLocation)
    }
}
