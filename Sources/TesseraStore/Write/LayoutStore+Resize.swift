import TesseraLayout

/// Measured sizes: fields of some items of a section replaced, and every
/// stored layout laid out again from the first changed item.
extension LayoutStore {
    /// Replaces fields of items of section `section` of the spec stored
    /// under `name` and brings every stored layout of it up to date in one
    /// transaction. Each layout goes on from the latest placer state it
    /// stored at or before the first changed item (one every 2,048 items
    /// of a section), not from the section's start: resizing items near the
    /// end of a long feed costs about the items after them. Later sections
    /// move without being laid out again. The result equals a full
    /// recompute of the changed spec, frame for frame, and the stored spec
    /// reads back with the changes applied: a list in place, a
    /// `count`/`cycle` or an items file under `{"base": …, "overrides": […]}`.
    ///
    /// Changes apply in order: two changes of one item both apply, the
    /// later one's fields over the earlier one's.
    ///
    /// - Throws: ``StoreError`` `.notFound` for an unknown spec, section or
    ///   item (nothing changed); `.invalidSpec` with the changed item's path
    ///   (`sections[2].items[17].aspectRatio`) for a value a stored layout's
    ///   kind refuses; `.invalidArgument` for no changes, or a change of no field.
    /// - Returns: what the resize did to each stored layout, as ``append(name:section:items:)``.
    @discardableResult
    public func resize(name: String, section: Int, changes: [ItemChange]) async throws -> UpdateReport {
        let name = try specName(name)
        guard let first = changes.map(\.item).min() else {
            throw StoreError(.invalidArgument, "a resize needs at least one change", spec: name, section: section)
        }
        for change in changes {
            if change.item < 0 {
                throw StoreError(.invalidArgument, Self.prefix(change) + "item must be at least 0, got \(change.item)", spec: name, section: section)
            }
            if change.fields.isEmpty {
                throw StoreError(.invalidArgument, Self.prefix(change) + "the change of item \(change.item) names no field to replace", spec: name, section: section, item: change.item)
            }
        }
        do {
            return try await writeAsync { cancellation in try await write(naming: name) { storage in
                let target = try await sectionTarget(name: name, section: section, storage: storage)
                return try await rewriteSection(target, storage: storage, cancellation: cancellation) { old in
                    var items = try old.items.items(at: Set(changes.map(\.item)), section: section)
                    for change in changes {
                        guard let item = items[change.item] else {
                            let count = old.items.knownCount.map { " (it has \($0))" } ?? ""
                            throw StoreError(
                                .notFound, Self.prefix(change) + "section \(section) of spec \(name.quotedForMessage) has no item \(change.item)\(count)",
                                spec: name, section: section, item: change.item)
                        }
                        items[change.item] = item.replacing(change.fields)
                    }
                    return (old.items.replacing(items), first)
                }
            } }
        } catch var error as StoreError where error.code == .invalidSpec {
            // A changed item's field (`sections[s].items[i]…`): name its input line.
            let start = "sections[\(section)].items["
            if let path = error.path, path.hasPrefix(start), let item = Int(path.dropFirst(start.count).prefix(while: \.isNumber)),
               let change = changes.last(where: { $0.item == item }), let line = change.line, let cause = error.cause as? SpecError {
                let named = SpecError(path: cause.path, reason: "line \(line): \(cause.reason)")
                error.message = named.description
                error.cause = named
                error.item = item
            }
            throw error
        }
    }

    /// `line N: ` for a change read from NDJSON, else nothing.
    private static func prefix(_ change: ItemChange) -> String {
        change.line.map { "line \($0): " } ?? ""
    }
}
