import TesseraLayout
import TesseraStoreFormat

/// What a spec's content hash goes on from when only its last section changes: the hasher's state after
/// the header and every other section's hash (see `SpecFingerprint`), so that an append to the last section
/// reads that section's row alone; stored beside the content hash and section count it was made for.
package struct SpecHashPrefix: Sendable, Equatable {
    /// The spec's content hash it was made for: used only while the spec's
    /// row holds it (any other change to the spec leaves it behind).
    package var specHash: String
    /// The spec's section count then.
    package var sectionCount: Int
    /// The `ContentHasher` state, 24 bytes.
    package var state: [UInt8]

    /// Whether it was made for `record` as the spec's row holds it now.
    func isCurrent(for record: SpecRow) -> Bool {
        specHash == record.contentHash && sectionCount == record.sectionCount
    }
}

extension LayoutStore {
    /// Whether the stored prefix of the spec `name` (`spec` as loaded), when current, is the state its
    /// sections' stored hashes make: for the store's check, which would otherwise not see a prefix that is
    /// wrong but matches its checksum until an append hashed on from it.
    static func hashPrefixHolds(name: String, spec: Spec, storage: RowSnapshot) throws -> Bool {
        guard let record = try storage.spec(name: name),
              let prefix = try storage.specHashPrefix(specID: record.id), prefix.isCurrent(for: record)
        else { return true }
        let hashes = try storage.sections(specID: record.id).map(\.contentHash)
        guard !hashes.isEmpty else { return false }
        return SpecFingerprint.hasher(axis: spec.axis, sectionSpacing: spec.sectionSpacing, sectionHashes: hashes.dropLast()).state == prefix.state
    }
}
