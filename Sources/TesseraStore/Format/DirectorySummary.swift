import TesseraLayout
import TesseraStoreFormat

/// A small layout's whole directory in one blob on its layout row, read
/// with the row by a layout's first query; its format and rules are in
/// Architecture.md, "Directory summaries".
package enum DirectorySummary {
    static let format: UInt64 = 1
    /// Sections plus groups a summary holds at most: as many as a
    /// directory that loads inline on a miss.
    static let maximumRows = 64
    private static let headerWords = 4
    private static let sectionWords = 15
    private static let groupWords = 7

    /// The summary of `sections` and their `groups`, the rows of the
    /// layout `layoutID` at `revision`, proven whole (each group's first
    /// item is its place's); nil when they are more than ``maximumRows`` rows.
    static func encode(sections: [SectionRecord], groups: LayoutGroups, layoutID: Int64, revision: Int64) -> [UInt8]? {
        let groupCount = groups.ids.count
        guard sections.count + groupCount <= maximumRows else { return nil }
        var words: [UInt64] = []
        words.reserveCapacity(headerWords + sections.count * sectionWords + groupCount * groupWords + 1)
        func put(_ value: Int) { words.append(UInt64(bitPattern: Int64(value))) }
        func put(_ value: Int64) { words.append(UInt64(bitPattern: value)) }
        func put(_ value: Double) { words.append(value.bitPattern) }
        words.append(format)
        put(layoutID)
        put(revision)
        put(sections.count)
        for (position, section) in sections.enumerated() {
            let geometry = section.geometry
            put(geometry.index)
            put(geometry.start)
            words.append(Flags.of(geometry).rawValue)
            put(geometry.header?.size ?? 0)
            put(geometry.footer?.size ?? 0)
            put(geometry.scrollStartInset)
            put(geometry.scrollEndInset)
            put(geometry.crossStartInset)
            put(geometry.itemCount)
            put(geometry.itemsExtent)
            put(geometry.cellSpan?.lowerBound ?? 0)
            put(geometry.cellSpan?.upperBound ?? 0)
            put(geometry.orthogonalContentLength ?? 0)
            put(section.slot)
            let ordinals = groups.starts[position]..<groups.starts[position + 1]
            put(ordinals.count)
            for index in ordinals {
                put(SectionGroups.firstItem(at: index - ordinals.lowerBound))
                put(groups.ids[index])
                let bounds = groups.bounds[index]
                put(bounds.minCross)
                put(bounds.maxCross)
                put(bounds.minScroll)
                put(bounds.maxScroll)
                put(groups.checksums[index])
            }
        }
        var bytes = [UInt8](repeating: 0, count: (words.count + 1) * 8)
        bytes.withUnsafeMutableBytes { raw in
            for (index, word) in words.enumerated() { raw.storeBytes(of: word.littleEndian, toByteOffset: index * 8, as: UInt64.self) }
            let checksum = Checksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(words.count * 8)]))
            raw.storeBytes(of: UInt64(bitPattern: checksum).littleEndian, toByteOffset: words.count * 8, as: UInt64.self)
        }
        return bytes
    }

    /// The directory `bytes` summarize, verified against `record` (the
    /// layout row read with them); throws ``SummaryDamage`` naming what is wrong.
    static func decode(_ bytes: [UInt8], record: LayoutRecord) throws -> (sections: [SectionRecord], groups: LayoutGroups) {
        try bytes.withUnsafeBytes { raw in
            guard raw.count >= (headerWords + 1) * 8, raw.count % 8 == 0 else { throw SummaryDamage("is \(raw.count) bytes long") }
            let end = raw.count / 8 - 1
            let stored = Int64(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: end * 8, as: UInt64.self)))
            guard Checksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(end * 8)])) == stored else { throw SummaryDamage("does not match its checksum") }
            var position = 0
            func word() throws -> UInt64 {
                guard position < end else { throw SummaryDamage("ends early") }
                defer { position += 1 }
                return UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: position * 8, as: UInt64.self))
            }
            func int() throws -> Int { Int(truncatingIfNeeded: Int64(bitPattern: try word())) }
            func double() throws -> Double { Double(bitPattern: try word()) }
            guard try word() == format else { throw SummaryDamage("has a format this build does not read") }
            let layoutID = Int64(bitPattern: try word())
            let revision = Int64(bitPattern: try word())
            guard layoutID == record.layout.id, revision == record.revision else {
                throw SummaryDamage("is of layout \(layoutID) at revision \(revision), not of its row's \(record.layout.id) at \(record.revision)")
            }
            let sectionCount = try int()
            guard sectionCount == record.layout.sectionCount, sectionCount <= (end - position) / sectionWords else {
                throw SummaryDamage("holds \(sectionCount) sections, its row says \(record.layout.sectionCount)")
            }
            var sections: [SectionRecord] = []
            sections.reserveCapacity(sectionCount)
            // Every word left after the sections' could be a group's: enough for any.
            var groups = LayoutGroups(sections: sectionCount, groups: (end - position - sectionCount * sectionWords) / groupWords)
            for _ in 0..<sectionCount {
                let index = try int(), start = try double()
                let flags = Flags(rawValue: try word())
                let headerSize = try double(), footerSize = try double()
                let scrollStart = try double(), scrollEnd = try double(), crossStart = try double()
                let itemCount = try int(), itemsExtent = try double()
                let spanLow = try double(), spanHigh = try double(), orthogonal = try double()
                let slot = try int()
                guard spanLow <= spanHigh || !flags.contains(.cellSpan) else { throw SummaryDamage("holds a section whose cells span backwards") }
                let geometry = SectionGeometry(
                    index: index, start: start,
                    header: flags.contains(.header) ? Supplementary(size: headerSize, pinned: flags.contains(.headerPinned)) : nil,
                    footer: flags.contains(.footer) ? Supplementary(size: footerSize, pinned: flags.contains(.footerPinned)) : nil,
                    background: flags.contains(.background),
                    scrollStartInset: scrollStart, scrollEndInset: scrollEnd, crossStartInset: crossStart,
                    itemCount: itemCount, itemsExtent: itemsExtent,
                    cellSpan: flags.contains(.cellSpan) ? spanLow...spanHigh : nil,
                    orthogonalContentLength: flags.contains(.orthogonal) ? orthogonal : nil
                )
                sections.append(SectionRecord(geometry: geometry, slot: slot))
                let groupCount = try int()
                guard groupCount >= 0, groupCount <= (end - position) / groupWords else { throw SummaryDamage("ends early") }
                for _ in 0..<groupCount {
                    let firstItem = try int(), id = Int64(bitPattern: try word())
                    let minCross = try double(), maxCross = try double(), minScroll = try double(), maxScroll = try double()
                    let checksum = Int64(bitPattern: try word())
                    let bounds = QueryBounds(minCross: minCross, maxCross: maxCross, minScroll: minScroll, maxScroll: maxScroll)
                    groups.append(firstItem: firstItem, id: id, bounds: bounds, checksum: checksum)
                }
                groups.endSection()
            }
            guard position == end else { throw SummaryDamage("holds \(end - position) words past its last section") }
            return (sections, groups)
        }
    }

    /// What a section's optional parts are, in one word.
    private struct Flags: OptionSet {
        let rawValue: UInt64
        static let header = Flags(rawValue: 1)
        static let headerPinned = Flags(rawValue: 2)
        static let footer = Flags(rawValue: 4)
        static let footerPinned = Flags(rawValue: 8)
        static let background = Flags(rawValue: 16)
        static let cellSpan = Flags(rawValue: 32)
        static let orthogonal = Flags(rawValue: 64)

        static func of(_ geometry: SectionGeometry) -> Flags {
            var flags: Flags = []
            if let header = geometry.header { flags.insert(header.pinned ? [.header, .headerPinned] : .header) }
            if let footer = geometry.footer { flags.insert(footer.pinned ? [.footer, .footerPinned] : .footer) }
            if geometry.background { flags.insert(.background) }
            if geometry.cellSpan != nil { flags.insert(.cellSpan) }
            if geometry.orthogonalContentLength != nil { flags.insert(.orthogonal) }
            return flags
        }
    }
}

/// What is wrong with a layout's directory summary.
struct SummaryDamage: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
