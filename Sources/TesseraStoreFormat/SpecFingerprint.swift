import TesseraLayout

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a stored layout depends on: the spec's canonical content (item files
/// included, by their bytes) as a whole and per section.
///
/// A layout is valid only for the exact spec content, cross extent and engine
/// version it was computed from; the per-section hashes let an update keep
/// the sections that did not change.
package struct SpecFingerprint: Sendable, Hashable {
    /// The hash of the whole spec.
    package var specHash: String
    /// One hash per section, in spec order.
    package var sectionHashes: [String]
    /// Each section's identity: its `id`, or its index when it has none.
    package var sectionIdentities: [String]

    package init(spec: Spec) throws {
        self = try Self.withBodies(spec: spec).fingerprint
    }

    /// The fingerprint of `spec` and the stored body of each section (its
    /// canonical JSON), each section rendered once for both.
    package static func withBodies(spec: Spec) throws -> (fingerprint: SpecFingerprint, bodies: [String]) {
        var sectionHashes: [String] = []
        var identities: [String] = []
        var bodies: [String] = []
        for (index, section) in spec.sections.enumerated() {
            let (body, hash) = try bodyAndHash(section, index: index, axis: spec.axis)
            sectionHashes.append(hash)
            bodies.append(body)
            identities.append(Self.identity(of: section, index: index))
        }
        let fingerprint = SpecFingerprint(
            axis: spec.axis, sectionSpacing: spec.sectionSpacing, sectionHashes: sectionHashes, sectionIdentities: identities
        )
        return (fingerprint, bodies)
    }

    /// A fingerprint from section hashes already known: an append hashes only
    /// the section it changed.
    package init(axis: Axis, sectionSpacing: Double, sectionHashes: [String], sectionIdentities: [String]) {
        let whole = Self.hasher(axis: axis, sectionSpacing: sectionSpacing, sectionHashes: sectionHashes[...])
        self.init(specHash: whole.hex, sectionHashes: sectionHashes, sectionIdentities: sectionIdentities)
    }

    package init(specHash: String, sectionHashes: [String], sectionIdentities: [String]) {
        self.specHash = specHash
        self.sectionHashes = sectionHashes
        self.sectionIdentities = sectionIdentities
    }

    /// The hasher of the spec's content hash once it combined these section hashes.
    package static func hasher(axis: Axis, sectionSpacing: Double, sectionHashes: ArraySlice<String>) -> ContentHasher {
        var whole = ContentHasher()
        whole.combine("tessera-spec-1")
        whole.combine(axis.rawValue)
        whole.combine(JSONWriter.format(sectionSpacing))
        for hash in sectionHashes { whole.combine(hash) }
        return whole
    }

    /// `id:` and the section's id, or `#` and its index: the two kinds of
    /// identity can never be equal.
    static func identity(of section: Section, index: Int) -> String {
        section.id.map { "id:" + $0 } ?? "#\(index)"
    }

    /// A section's content: its JSON without the id (identity is not
    /// content) and, for file items, the file's bytes.
    package static func hash(_ section: Section, index: Int, axis: Axis) throws -> String {
        try bodyAndHash(section, index: index, axis: axis).hash
    }

    /// A section's stored body (its canonical JSON, id included) and its
    /// content hash (see ``hash(_:index:axis:)``), from one rendering.
    package static func bodyAndHash(_ section: Section, index: Int, axis: Axis) throws -> (body: String, hash: String) {
        var hasher = ContentHasher()
        hasher.combine(axis.rawValue)
        let (body, content) = JSONWriter.canonicalBytes(section.jsonValue, andWithout: "id")
        hasher.combine(text: content)
        // Files at any depth: an append turns a file section into segments.
        for file in section.items.itemFiles {
            try hashFile(file.resolvedPath, jsonPath: "sections[\(index)].items.\(file.jsonPath)", into: &hasher)
        }
        return (String(decoding: body, as: UTF8.self), hasher.hex)
    }

    /// What a section's layout at `crossExtent` depends on besides its
    /// items: its canonical JSON without id and items, its layout resolved
    /// at that extent (``SectionLayout/resolved(crossExtent:)``: the
    /// breakpoints that apply there merged in, the others left out). Two
    /// sections with the same shape at an extent and the same items lay
    /// out alike there, so a change to a breakpoint leaves the extents it
    /// does not reach as they are.
    package static func shape(of section: Section, crossExtent: Double) -> String {
        var resolved = section
        resolved.layout = section.layout.resolved(crossExtent: crossExtent)
        guard case .object(var object) = resolved.jsonValue else { return "" }
        object["id"] = nil
        object["items"] = nil
        return JSONWriter.canonical(.object(object))
    }

    private static func hashFile(_ path: String, jsonPath: String, into hasher: inout ContentHasher) throws {
        try FileBytes.forEachChunk(of: path, errorPath: jsonPath, regularFileOnly: true) { hasher.combine($0) }
    }
}
