extension LayoutEngine {
    /// Lets the section's kind validate the cycle entries that no item
    /// repeats, by placing each once on a placer that is then thrown away:
    /// those entries are part of the spec, and a spec that breaks a rule
    /// anywhere is rejected as a whole. Entries that items repeat are
    /// validated when the items are placed, so none is checked per item.
    static func validateUnreachedCycleEntries(of section: Section, in context: SectionContext) throws {
        let unreached = section.items.unreachedCycleEntries(section: context.section)
        guard !unreached.isEmpty else { return }
        var probe = try section.layout.makePlacer(in: context)
        var sink = FrameSink()
        for (order, entry) in unreached.enumerated() {
            // The probe sees the entries as items 0, 1, … in order, as a
            // placer expects; errors name them by their location.
            try probe.place(entry.entry, index: order, location: entry.location, into: &sink)
            sink.drain { _ in }
        }
    }
}
