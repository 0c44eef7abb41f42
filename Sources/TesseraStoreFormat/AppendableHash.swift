import TesseraLayout

/// A section's content hash (``SpecFingerprint/hash(_:index:axis:)``) that
/// goes on as items are appended, without reading the items before them.
///
/// The hash is FNV over the section's canonical text, and appended items
/// (``ItemSource/appending(_:)``) always go at the end of one list inside
/// it: the state keeps the hasher after the text up to the list's last
/// item, and the text after it (the list's closing brackets and the
/// section's members after `items`). Appending hashes only the new items'
/// text; the result equals the hash of the whole section, byte for byte.
/// Sections that read items files have none (their hash reads the files).
package struct AppendableHash {
    private static let version: UInt8 = 1
    private var hasher: ContentHasher
    /// Whether the list the next items go into is empty (no comma first).
    private var listIsEmpty: Bool
    /// The section's canonical text after the list's last item.
    private let suffix: [UInt8]

    /// The state of `section` of a spec along `axis`; nil for a section
    /// that reads an items file.
    package init?(section: Section, axis: Axis) {
        guard section.items.itemFiles.isEmpty else { return nil }
        var open = section
        // The form items take once appended to: a list, or segments ending with one.
        open.items = section.items.appending([])
        guard case .object(var object) = open.jsonValue else { return nil }
        object["id"] = nil
        let (text, member) = JSONWriter.canonicalBytes(.object(object), marking: "items")
        guard let member else { return nil }
        let place = open.items.appendedPlace
        // The member's range may hold a comma after it; the items' text ends with "]" or "}".
        let itemsEnd = text[member.upperBound - 1] == UInt8(ascii: ",") ? member.upperBound - 1 : member.upperBound
        // Segments close with "]}" after the list's own "]".
        let listEnd = itemsEnd - 1 - (place.segment == nil ? 0 : 2)
        hasher = ContentHasher()
        hasher.combine(axis.rawValue)
        hasher.combine(text[..<listEnd])
        listIsEmpty = place.itemsBefore == 0
        suffix = Array(text[listEnd...])
    }

    /// A state stored by ``bytes``; nil when they are not one.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= 26, bytes[0] == Self.version, bytes[25] <= 1,
              let hasher = ContentHasher(state: bytes[1..<25]) else { return nil }
        self.hasher = hasher
        listIsEmpty = bytes[25] == 1
        suffix = Array(bytes[26...])
    }

    /// The state as stored: a version byte, the hasher's 24 bytes, whether
    /// the list is empty, then the text after it.
    package var bytes: [UInt8] {
        [Self.version] + hasher.state + [listIsEmpty ? 1 : 0] + suffix
    }

    /// The section's content hash.
    package var hash: String {
        var final = hasher
        final.combine(suffix)
        final.combine(CollectionOfOne(0xFF))
        return final.hex
    }

    /// Goes on past `items`; returns their canonical text as a JSON array.
    package mutating func append(_ items: [Item]) -> String {
        var run: [UInt8] = [UInt8(ascii: "[")]
        for (offset, item) in items.enumerated() {
            if offset > 0 { run.append(UInt8(ascii: ",")) }
            let start = run.count
            run += JSONWriter.canonical(item.jsonValue).utf8
            if !listIsEmpty { hasher.combine(CollectionOfOne(UInt8(ascii: ","))) }
            hasher.combine(run[start...])
            listIsEmpty = false
        }
        run.append(UInt8(ascii: "]"))
        return String(decoding: run, as: UTF8.self)
    }
}
