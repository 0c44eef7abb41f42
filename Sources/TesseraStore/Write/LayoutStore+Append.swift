import Locking
import TesseraLayout
import TesseraStoreFormat

/// Appends and other changes to one section's items: every stored layout of
/// the spec is updated in the same transaction.
extension LayoutStore {
    /// Appends `items` to section `section` of the spec stored under `name`
    /// and updates every stored layout of it in one transaction, going on
    /// from where each layout stopped: about the work of the new items.
    /// The items are stored as a run of their own beside the section, and
    /// the section's hash goes on from its stored state: nothing that grows
    /// with the section is read or written (a section that reads an items
    /// file, and an append of no items, which may change the section's
    /// form, are written whole).
    @discardableResult
    public func append(name: String, section: Int, items: [Item]) async throws -> UpdateReport {
        let name = try specName(name)
        return try await writeAsync { cancellation in try await write(naming: name) { storage in
            let target = try await sectionTarget(name: name, section: section, storage: storage)
            let specID = target.record.id
            let base = try await storedBody(specID: specID, index: section, name: name, storage: storage)
            let last = try await storage.read { try $0.lastItemRun(specID: specID, section: section) }
            var hash = last.flatMap { AppendableHash(bytes: $0.hashState) }
            if hash == nil, base.items.knownCount != nil {
                // No run yet, or a state this build does not read: from the whole section once.
                let whole = if last == nil { base } else { try await storedSection(specID: specID, index: section, name: name, storage: storage) }
                hash = AppendableHash(section: whole, axis: target.header.axis)
            }
            guard !items.isEmpty, let baseCount = base.items.knownCount, var hash,
                  let appended = AppendedItems(items, appendedTo: base.items, after: (last?.endItem ?? baseCount) - baseCount)
            else {
                return try await rewriteSection(target, storage: storage, cancellation: cancellation) { old in (old.items.appending(items), nil) }
            }
            let before = appended.firstIndex
            guard items.count <= Spec.maximumItemCount - before else {
                throw JSONPath.root.appending("sections").appending(section).appending("items")
                    .error("would hold \(before) + \(items.count) items, more than a spec's limit of \(Spec.maximumItemCount)")
            }
            let run = hash.append(items)
            let fingerprint = target.fingerprint(changing: hash.hash)
            try await storage.appendItemRun(
                specID: specID,
                ItemRun(section: section, firstItem: before, itemCount: items.count, items: run, hashState: hash.bytes),
                contentHash: hash.hash
            )
            return try await updateLayouts(target, fingerprint: fingerprint, storage: storage, cancellation: cancellation,
                oldSection: { try await self.storedSection(specID: specID, index: section, name: name, storage: storage, runsBefore: before) },
                newSection: { try await self.storedSection(specID: specID, index: section, name: name, storage: storage) },
                configure: { $0.appended = [section: .init(before: before, base: base, items: appended)] }
            )
        } }
    }

    /// Replaces the items of `target`'s section with those `change` makes of the stored section, and updates every
    /// layout inside the caller's write, each from its latest state at or before `changedFrom` (nil: items only
    /// appended). The body is written whole, its runs folded in; no other section is read or written.
    func rewriteSection(
        _ target: SectionTarget,
        storage: RowTransaction,
        cancellation: CancellationFlag?,
        _ change: (Section) throws -> (items: ItemSource, changedFrom: Int?)
    ) async throws -> UpdateReport {
        let (name, index, specID) = (target.record.name, target.section, target.record.id)
        let old = try await storedSection(specID: specID, index: index, name: name, storage: storage)
        let (newItems, changedFrom) = try change(old)
        var changed = old
        changed.items = newItems
        let (body, hash) = try SpecFingerprint.bodyAndHash(changed, index: index, axis: target.header.axis)
        let fingerprint = target.fingerprint(changing: hash)
        try await storage.writeSection(
            specID: specID, index: index, identity: target.previous[index].identity, contentHash: hash, body: body
        )
        try await storage.deleteItemRuns(specID: specID, sections: [index])
        return try await updateLayouts(target, fingerprint: fingerprint, storage: storage, cancellation: cancellation,
            oldSection: { old }, newSection: { changed },
            configure: { updater in updater.changedFrom = changedFrom.map { [index: $0] } ?? [:] }
        )
    }

    /// Writes the spec's new hash, then brings every layout of `target` up to
    /// date once its section changed: `oldSection` and `newSection` give that
    /// section before and after (asked for only when a layout needs them).
    private func updateLayouts(
        _ target: SectionTarget,
        fingerprint: SpecFingerprint,
        storage: RowTransaction,
        cancellation: CancellationFlag?,
        oldSection: @escaping () async throws -> Section,
        newSection: @escaping () async throws -> Section,
        configure: (inout LayoutUpdater) -> Void
    ) async throws -> UpdateReport {
        let (name, section, specID) = (target.record.name, target.section, target.record.id)
        try await storage.touchSpec(id: specID, contentHash: fingerprint.specHash, updatedAt: Clock.wall())
        try await target.writeHashPrefix(fingerprint, storage: storage)
        let stored = { (index: Int) in try await self.storedSection(specID: specID, index: index, name: name, storage: storage) }
        return try await updateLayouts(
            target.layouts, name: name, specID: specID, header: target.header, oldIdentities: target.previous, fingerprint: fingerprint,
            storage: storage, progress: nil, cancellation: cancellation,
            wholeSpec: {
                guard let spec = try await storage.read({ try loadSpec(name: name, storage: $0) })?.spec else { throw StoreError.noSuchSpec(name: name) }
                return spec
            },
            oldSection: { $0 == section ? try await oldSection() : try await stored($0) },
            newSection: { $0 == section ? try await newSection() : try await stored($0) },
            configure: configure
        )
    }

    /// A stored section with its item runs appended, in order.
    func appending(_ runs: [ItemRun], to section: Section, name: String) throws -> Section {
        guard !runs.isEmpty else { return section }
        let items = try runs.flatMap { run -> [Item] in
            guard case .array(let values) = try parseStored(run.items, name: name), values.count == run.itemCount else {
                throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) has items appended to section \(run.section) that are not \(run.itemCount) items")
            }
            let path = JSONPath.root.appending("sections").appending(run.section).appending("items")
            return try readingStored(name) {
                try values.enumerated().map { offset, value in try Item(json: value, path: path.appending(run.firstItem + offset)) }
            }
        }
        var appended = section
        appended.items = section.items.appending(items)
        return appended
    }
}
