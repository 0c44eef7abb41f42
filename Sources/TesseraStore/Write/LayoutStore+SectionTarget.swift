import TesseraLayout
import TesseraStoreFormat

/// What a change to one section's items (an append, a resize) reads of its
/// spec before it writes: the spec's row, its header, its layouts and its
/// sections' identities and hashes, each row verified.
extension LayoutStore {
    struct SectionTarget {
        var section: Int
        var record: SpecRow
        var header: Spec
        /// Every section's identity and content hash, in order. With `hashPrefix`
        /// read, not made, the sections before `section` are not read: each holds
        /// `unread:` and its index, never a stored identity (`id:…`, `#…`) nor hash.
        var previous: [SectionIdentity]
        /// Read before the spec rows change: states are judged against the old content.
        var layouts: [LayoutRecord]
        /// When `section` is the last: the spec's content hasher after its
        /// header and every other section's hash (see ``SpecHashPrefix``).
        var hashPrefix: ContentHasher?
    }

    /// Reads what a change to section `section` starts from. For the last section of a spec whose layouts are all
    /// fresh, that section's identity alone when a current ``SpecHashPrefix`` is stored (its row verified); else
    /// every section's, and a change to the last one then stores the prefix (`SectionTarget.writeHashPrefix`).
    func sectionTarget(name: String, section: Int, storage: RowTransaction) async throws -> SectionTarget {
        guard let record = try await storage.read({ try $0.spec(name: name) }) else { throw StoreError.noSuchSpec(name: name) }
        let header = try storedSpec(record, bodies: nil, name: name)
        let layouts = try await storage.read { try $0.layoutRecords(of: record) }
        var target = SectionTarget(section: section, record: record, header: header, previous: [], layouts: layouts)
        // A layout that is not fresh is computed from the whole spec, whose fingerprint is read whole.
        if section >= 0, section == record.sectionCount - 1, layouts.allSatisfy({ $0.layout.state == .fresh }),
           let (prefix, last) = try await storage.read({ snapshot -> (ContentHasher, SectionIdentity)? in
               guard let prefix = try snapshot.specHashPrefix(specID: record.id), prefix.isCurrent(for: record),
                     let hasher = ContentHasher(state: prefix.state[...]),
                     let last = try snapshot.sections(specID: record.id, index: section).first?.sectionIdentity
               else { return nil }
               return (hasher, last)
           }) {
            target.previous = (0..<section).map { SectionIdentity(identity: "unread:\($0)", hash: "") } + [last]
            target.hashPrefix = prefix
            return target
        }
        target.previous = try await storage.read { try $0.sections(specID: record.id).map(\.sectionIdentity) }
        guard target.previous.indices.contains(section) else {
            throw StoreError.noSuchSection(name: name, section: section, count: target.previous.count)
        }
        if section == target.previous.count - 1 {
            target.hashPrefix = SpecFingerprint.hasher(
                axis: header.axis, sectionSpacing: header.sectionSpacing, sectionHashes: target.previous.dropLast().map(\.hash)[...]
            )
        }
        return target
    }
}

extension LayoutStore.SectionTarget {
    /// The spec's fingerprint once its section `section` has content hash `hash`.
    func fingerprint(changing hash: String) -> SpecFingerprint {
        var hashes = previous.map(\.hash)
        hashes[section] = hash
        let identities = previous.map(\.identity)
        if var whole = hashPrefix {
            // `section` is the last: the same hash as from every section's, without them.
            whole.combine(hash)
            return SpecFingerprint(specHash: whole.hex, sectionHashes: hashes, sectionIdentities: identities)
        }
        return SpecFingerprint(axis: header.axis, sectionSpacing: header.sectionSpacing, sectionHashes: hashes, sectionIdentities: identities)
    }

    /// Stores what the spec's new content hash (`fingerprint`'s) goes on
    /// from, when `section` is the last: the next change to it reads no other section.
    func writeHashPrefix(_ fingerprint: SpecFingerprint, storage: RowTransaction) async throws {
        guard let hashPrefix else { return }
        try await storage.writeSpecHashPrefix(
            specID: record.id, SpecHashPrefix(specHash: fingerprint.specHash, sectionCount: previous.count, state: hashPrefix.state)
        )
    }
}
