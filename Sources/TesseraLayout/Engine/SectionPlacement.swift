/// Where a section's kind runs, and how the frames it writes become the
/// feed's: for a section that scrolls with the feed, in the feed's own
/// coordinates; for an orthogonal one (a carousel), as the one section of
/// a spec of the other axis at cross extent `orthogonal.length`, whose
/// frames are then turned back into the feed's coordinates.
///
/// The engine lays sections out through it, and a store restores a placer
/// with the same context, so both agree on every kind's parameters.
package struct SectionPlacement: Sendable {
    /// What the kind sees: its axis, cross extent and avail.
    package let context: SectionContext
    /// The section's insets as (scroll start, scroll end, cross start,
    /// cross end) along the feed's axes.
    package let sides: (scrollStart: Double, scrollEnd: Double, crossStart: Double, crossEnd: Double)
    /// The carousel's length along the feed's scroll axis, or nil.
    package let orthogonalLength: Double?

    /// The placement of section `index` of a spec of `axis` at the
    /// container's `crossExtent`.
    /// - Throws: ``SpecError`` naming the section's insets when they leave
    ///   less than nothing for the items.
    package init(_ section: Section, index: Int, axis: Axis, crossExtent: Double) throws {
        let sides = section.insets.along(axis)
        self.sides = sides
        orthogonalLength = section.orthogonal?.length
        let path = JSONPath.root.appending("sections").appending(index).appending("insets")
        if let length = orthogonalLength {
            // The kind runs on the other axis: its cross axis is the feed's scroll axis.
            let available = length - sides.scrollStart - sides.scrollEnd
            if available < 0 {
                throw path.error(
                    "the insets along the scroll axis (\(JSONWriter.format(sides.scrollStart + sides.scrollEnd))) exceed the orthogonal length (\(JSONWriter.format(length)))"
                )
            }
            context = SectionContext(axis: axis.other, section: index, crossExtent: length, available: available, containerExtent: crossExtent)
        } else {
            let available = crossExtent - sides.crossStart - sides.crossEnd
            if available < 0 {
                throw path.error(
                    "the cross-axis insets (\(JSONWriter.format(sides.crossStart + sides.crossEnd))) exceed the container's extent (\(JSONWriter.format(crossExtent)))"
                )
            }
            context = SectionContext(axis: axis, section: index, crossExtent: crossExtent, available: available)
        }
    }

    /// The section's items origin in the feed's coordinates, for a section
    /// starting at `start` with a header `headerLength` long. A carousel's
    /// is the same point: its cells start insets.left across (the other
    /// spec's items origin along its scroll axis) and the header plus
    /// insets.top down (the other spec's cross-start inset).
    package func origin(start: Double, headerLength: Double) -> SectionOrigin {
        SectionOrigin(cross: sides.crossStart, scroll: SectionGeometry.itemsOrigin(start: start, headerLength: headerLength, inset: sides.scrollStart))
    }

    /// Frames the kind wrote (relative to the items origin, in its own
    /// coordinates) in the feed's coordinates: the same for a section that
    /// scrolls with the feed, the axes swapped for a carousel.
    package func feedFrames(_ frames: [PlacedFrame]) -> [PlacedFrame] {
        guard orthogonalLength != nil else { return frames }
        return frames.map { PlacedFrame(item: $0.item, frame: $0.frame.swappingAxes) }
    }

    /// The items region's extent along the feed's scroll axis, from the
    /// extent the kind reported: a carousel's is its avail, items or not.
    package func itemsExtent(kindExtent: Double, itemCount: Int) -> Double {
        if orthogonalLength != nil { return context.available }
        return itemCount == 0 ? 0 : kindExtent
    }

    /// A carousel's content length across the feed: the extent of its
    /// items along the kind's scroll axis with insets.left and insets.right
    /// (as on screen for a vertical spec), or 0 without items (the other
    /// spec's section would be empty); nil for a section that scrolls with
    /// the feed.
    package func contentLength(kindExtent: Double, itemCount: Int) -> Double? {
        guard orthogonalLength != nil else { return nil }
        return itemCount == 0 ? 0 : sides.crossStart + kindExtent + sides.crossEnd
    }
}

extension LocalFrame {
    /// The frame with its cross and scroll parts exchanged: a frame of a
    /// spec of the other axis, in this one's coordinates.
    @inlinable
    package var swappingAxes: LocalFrame {
        LocalFrame(cross: scroll, scroll: cross, crossLength: scrollLength, scrollLength: crossLength)
    }
}

extension Axis {
    /// The other axis.
    package var other: Axis {
        switch self {
        case .vertical: .horizontal
        case .horizontal: .vertical
        }
    }
}
