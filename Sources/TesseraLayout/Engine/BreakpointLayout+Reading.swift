/// Reading a layout object with `breakpoints`.
extension BreakpointLayout {
    /// Reads `object`, a layout object at `path` that holds `breakpoints`,
    /// with `read` (the kind's factory): the base object without
    /// `breakpoints`, then the base merged with each prefix of the
    /// breakpoints, in order, so that every parameter set the spec can
    /// produce is validated now. A breakpoint's null resets that
    /// parameter to the kind's default (null counts as absent).
    ///
    /// - Returns: the base layout alone when `breakpoints` is empty.
    /// - Throws: ``SpecError`` at `breakpoints[i]` for an entry that is not
    ///   an object, or holds `kind` or `breakpoints`; at
    ///   `breakpoints[i].minExtent` when it is missing, not a finite number
    ///   ≥ 0, or not above the previous one; at `breakpoints[i].field` for a
    ///   parameter set that breaks a rule of the kind, named at the
    ///   breakpoint that set the field last.
    static func read(
        object: JSONObject,
        path: JSONPath,
        keys: [String]?,
        _ read: (LayoutParameters) throws -> any SectionLayout
    ) throws -> any SectionLayout {
        let listPath = path.appending("breakpoints")
        let listValue = object["breakpoints"] ?? .null
        guard case .array(let entries) = listValue else {
            throw listPath.error("must be an array of breakpoints {\"minExtent\": E, …parameters}, got \(listValue.typeName)")
        }
        var merged = object
        merged["breakpoints"] = nil
        let base = try read(LayoutParameters(object: merged, path: path))
        // A kind registered without its keys takes those its layouts write back.
        let parameterKeys = keys ?? base.parameters.keys
        if keys == nil { try LayoutParameters(object: object, path: path).refuseUnknownKeys(["kind", "breakpoints"] + parameterKeys) }
        guard !entries.isEmpty else { return base }
        var overrides: [JSONObject] = []
        var breakpoints: [Breakpoint] = []
        for (index, value) in entries.enumerated() {
            let entryPath = listPath.appending(index)
            guard case .object(var entry) = value else {
                throw entryPath.error("a breakpoint must be an object {\"minExtent\": E, …parameters}, got \(value.typeName)")
            }
            for key in ["kind", "breakpoints"] {
                if let held = entry[key], held != .null {
                    throw entryPath.appending(key).error("a breakpoint may not set \(key): it overrides parameters of the layout's kind")
                }
                entry[key] = nil
            }
            try LayoutParameters(object: entry, path: entryPath).refuseUnknownKeys(["minExtent"] + parameterKeys)
            let minExtent = try LayoutParameters(object: entry, path: entryPath).requiredNumber("minExtent")
            try checkMinExtent(minExtent, after: breakpoints.last?.minExtent, at: entryPath.appending("minExtent"))
            entry["minExtent"] = nil
            overrides.append(entry)
            for (key, value) in zip(entry.keys, entry.values) { merged[key] = value }
            do {
                let layout = try read(LayoutParameters(object: merged, path: path))
                breakpoints.append(Breakpoint(minExtent: minExtent, layout: layout))
            } catch let error as SpecError {
                throw relocating(error, layoutPath: path, overrides: overrides, count: overrides.count)
            }
        }
        return BreakpointLayout(base: base, breakpoints: breakpoints)
    }
}
