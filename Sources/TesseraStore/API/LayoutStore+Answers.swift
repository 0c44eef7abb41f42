import TesseraLayout

/// What one query of a stored layout asks for.
public enum LayoutQuery: Sendable, Hashable {
    /// Every element whose frame intersects the rect.
    case rect(Rect)
    /// The elements visible in the viewport, pinned headers and footers moved.
    case viewport(Rect)
    /// The cell of one item.
    case item(section: Int, item: Int)
}

/// A query's elements together with the layout they were read from, all
/// from one snapshot: what a server needs to answer a request and tag it.
///
/// ```swift
/// let answer = try await store.answer(.viewport(rect), name: "home", crossExtent: 390)
/// if request.ifNoneMatch == answer.revisionTag { return .notModified }
/// ```
public struct LayoutAnswer: Sendable {
    /// The layout as stored when the query read it (axis, extent, content size).
    public var layout: StoredLayout
    /// Changes whenever the layout's stored frames change (a recomputation,
    /// an update or an append that touched it, a new layout at the same
    /// extent); the same while they stay as they are. Fit for an HTTP
    /// entity tag.
    public var revisionTag: String
    /// The elements, in the order of the in-memory `LayoutResult`'s answer.
    public var elements: [LayoutElement]
    /// The content length of each orthogonal section (carousel) that holds
    /// any of the elements, by section: the contract's `"orthogonal"`.
    public var orthogonal: [OrthogonalContent]
}

extension LayoutStore {
    /// Answers `query` on the layout of `name` at `crossExtent`, computing
    /// and storing the layout first when it is missing or stale (unless
    /// `computeIfMissing` is false: then that is `notFound` with the
    /// error's ``StoreError/crossExtent`` set).
    ///
    /// - Throws: ``StoreError`` `notFound` for an unknown spec, a layout it
    ///   may not compute, or an item query of a section or item that does
    ///   not exist (with ``StoreError/section`` and ``StoreError/item``);
    ///   `invalidArgument` for an extent the spec cannot take.
    ///
    /// `direction` `.rightToLeft` mirrors the answer at query time (the
    /// contract's "Right-to-left"): the mirror of the left-to-right answer
    /// for the mirrored rect, pinned first. The stored frames, and so the
    /// ``LayoutAnswer/revisionTag``, are those of the left-to-right answer.
    /// `offsets` scroll orthogonal sections (carousels) across the feed,
    /// before mirroring (the contract's "Orthogonal sections").
    nonisolated(nonsending) public func answer(
        _ query: LayoutQuery, name: String, crossExtent: Double, direction: LayoutDirection = .leftToRight,
        offsets: OrthogonalOffsets = .none, computeIfMissing: Bool = true
    ) async throws -> LayoutAnswer {
        let name = try specName(name)
        switch try await self.query(query, name: name, crossExtent: crossExtent, direction: direction, offsets: offsets, compute: computeIfMissing ? .always : .never) {
        case .found(let answer, _): return answer
        case .missing: throw StoreError.notComputed(name: name, crossExtent: crossExtent)
        }
    }

    static func answer(
        _ query: LayoutQuery, reader: LayoutReader, direction: LayoutDirection, offsets: OrthogonalOffsets, maximumElements: Int?
    ) throws -> LayoutAnswer {
        let limit = maximumElements.map { AnswerLimit(limit: $0, layout: reader.layout) }
        guard let found = try reader.answer(query, direction: direction, offsets: offsets, limit: limit) else {
            throw noSuchItem(query, layout: reader.layout)
        }
        return LayoutAnswer(
            layout: reader.layout, revisionTag: revisionTag(of: reader.record), elements: found.elements, orthogonal: found.orthogonal
        )
    }

    /// The layout's id (never reused) and revision (bumped by every change in place), with its content
    /// length as a check against ids that coincide in a store rebuilt from scratch.
    /// Written digit by digit: the server makes one per answer.
    private static func revisionTag(of record: LayoutRecord) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        JSONWriter.append(Int(record.layout.id), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        JSONWriter.append(Int(record.revision), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        // The content length's bits in base 36, lowercase.
        let start = bytes.count
        var rest = record.layout.contentLength.bitPattern
        repeat {
            let digit = UInt8(truncatingIfNeeded: rest % 36)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            rest /= 36
        } while rest > 0
        bytes[start...].reverse()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An item query's item that does not exist.
    private static func noSuchItem(_ query: LayoutQuery, layout: StoredLayout) -> StoreError {
        guard case .item(let section, let item) = query else { return StoreError(.internal, "a query of a rect found no answer") }
        guard section >= 0, section < layout.sectionCount else {
            return StoreError.noSuchSection(name: layout.specName, section: section, count: layout.sectionCount)
        }
        return StoreError(
            .notFound, "spec \(layout.specName.quotedForMessage) has no item \(item) in section \(section)",
            spec: layout.specName, crossExtent: layout.crossExtent, section: section, item: item
        )
    }
}
