import Testing
@testable import TesseraLayout

/// Outside items, a key the format does not define is an error at its path,
/// with the known key it may have meant when one is close.
@Suite("validation: unknown keys refused outside items, with a suggestion")
struct UnknownKeyTests {
    private func error(_ json: String, registry: LayoutRegistry = .standard) -> SpecError? {
        do {
            _ = try Spec(jsonText: json, registry: registry)
            return nil
        } catch {
            return error as? SpecError
        }
    }

    private static func section(_ body: String) -> String {
        #"{"format": 1, "sections": [\#(body)]}"#
    }

    /// (spec, path of the key, reason)
    static let typos: [(String, String, String)] = [
        (#"{"format": 1, "sectoins": []}"#, "sectoins", "unknown key; did you mean sections?"),
        (#"{"format": 1, "axsi": "vertical", "sections": []}"#, "axsi", "unknown key; did you mean axis?"),
        (#"{"format": 1, "SectionSpacing": 4, "sections": []}"#, "SectionSpacing", "unknown key; did you mean sectionSpacing?"),
        (section(#"{"layout": {"kind": "grid", "fracton": 3}}"#), "sections[0].layout.fracton", "unknown key; did you mean fraction?"),
        (section(#"{"layout": {"kind": "flow", "itemspacing": 3}}"#), "sections[0].layout.itemspacing", "unknown key; did you mean itemSpacing?"),
        (section(#"{"layout": {"kind": "flow"}, "orthogonal": {"lenght": 300}}"#), "sections[0].orthogonal.lenght", "unknown key; did you mean length?"),
        (section(#"{"layout": {"kind": "flow"}, "insets": {"lef": 3}}"#), "sections[0].insets.lef", "unknown key; did you mean left?"),
        (section(#"{"layout": {"kind": "flow"}, "header": {"size": 4, "pined": true}}"#), "sections[0].header.pined", "unknown key; did you mean pinned?"),
        (section(#"{"layout": {"kind": "flow"}, "footer": {"szie": 4}}"#), "sections[0].footer.szie", "unknown key; did you mean size?"),
        (section(#"{"layuot": {"kind": "flow"}}"#), "sections[0].layuot", "unknown key; did you mean layout?"),
        (section(#"{"layout": {"kind": "staggered", "columns": 2, "breakpoints": [{"minExtent": 600, "colums": 3}]}}"#),
         "sections[0].layout.breakpoints[0].colums", "unknown key; did you mean columns?"),
        (section(#"{"layout": {"kind": "staggered", "colums": 2, "breakpoints": [{"minExtent": 600, "columns": 3}]}}"#),
         "sections[0].layout.colums", "unknown key; did you mean columns?"),
        (section(#"{"layout": {"kind": "pattern", "blocks": [{"units": 2, "frames": [[0, 0, 1, 1]]}], "spacing": {"betwen": 4}}}"#),
         "sections[0].layout.spacing.betwen", "unknown key; did you mean between?"),
        (section(#"{"layout": {"kind": "pattern", "blocks": [{"unit": 2, "frames": [[0, 0, 1, 1]]}]}}"#),
         "sections[0].layout.blocks[0].unit", "unknown key; did you mean units?"),
        // A null value is still a typo; a key with nothing close lists what the object takes.
        (section(#"{"layout": {"kind": "flow"}, "insets": {"botom": null}}"#), "sections[0].insets.botom", "unknown key; did you mean bottom?"),
        (section(#"{"layout": {"kind": "flow"}, "orthogonal": {"length": 9, "wobble": 1}}"#), "sections[0].orthogonal.wobble", "unknown key (this object takes: length)"),
        // A key with characters that break a line is escaped in the path, so the error stays one line.
        (section(#"{"lay\#u{7F}out": {"kind": "flow"}}"#), "sections[0].lay\\u007Fout", "unknown key; did you mean layout?"),
        (section(#"{"layout": {"kind": "flow", "a\#u{2028}b\#u{85}": 1}}"#), "sections[0].layout.a\\u2028b\\u0085",
         "unknown key (this object takes: kind, breakpoints, itemSize, itemSpacing, lineSpacing, alignment)"),
        // An empty key is named in brackets, at the top level too.
        (#"{"format": 1, "": [], "sections": []}"#, #"[""]"#, "unknown key (this object takes: format, name, axis, sectionSpacing, sections)"),
        (section(#"{"layout": {"kind": "flow"}, "insets": {"": 1}}"#), #"sections[0].insets[""]"#, "unknown key (this object takes: top, left, bottom, right)"),
        // A parameter of another kind is not one of this kind's.
        (section(#"{"layout": {"kind": "flow", "columns": 2}}"#), "sections[0].layout.columns",
         "unknown key (this object takes: kind, breakpoints, itemSize, itemSpacing, lineSpacing, alignment)"),
    ]

    @Test("a misspelled key is an error at its path, naming the key meant", arguments: typos.indices)
    func typo(_ index: Int) {
        let (json, path, reason) = Self.typos[index]
        #expect(error(json) == SpecError(path: path, reason: reason))
    }

    @Test("items keep keys of the application's own; mozaik takes columns and columnCount together")
    func allowed() throws {
        let spec = try Spec(jsonText: Self.section(#"""
            {"layout": {"kind": "mozaik", "columns": [100, 100], "columnCount": 3, "rowHeight": 50},
             "items": [{"columns": 1, "id": "p-17", "url": "https://example.com/p/17.jpg", "nested": {"any": [1]}}]}
            """#))
        #expect(spec.sections[0].items.knownCount == 1)
        #expect(try Spec(jsonText: Self.section(#"{"layout": {"kind": "flow"}, "items": {"count": 2, "cycle": [{"size": [1, 1], "sku": 4}]}}"#)).sections.count == 1)
    }

    @Test("a kind registered with its keys refuses others; one without takes the keys its layouts write")
    func customKinds() {
        var withKeys = LayoutRegistry.standard
        withKeys.register("strip", keys: ["gap"]) { parameters in FlowLayout(itemSpacing: try parameters.number("gap") ?? 0) }
        #expect(error(Self.section(#"{"layout": {"kind": "strip", "gap": 4}}"#), registry: withKeys) == nil)
        #expect(error(Self.section(#"{"layout": {"kind": "strip", "gapp": 4}}"#), registry: withKeys)
            == SpecError(path: "sections[0].layout.gapp", reason: "unknown key; did you mean gap?"))

        var written = LayoutRegistry.standard
        written.register("strip") { parameters in FlowLayout(itemSpacing: try parameters.number("itemSpacing") ?? 0) }
        #expect(error(Self.section(#"{"layout": {"kind": "strip", "itemSpacing": 4}}"#), registry: written) == nil)
        #expect(error(Self.section(#"{"layout": {"kind": "strip", "itemSpacng": 4}}"#), registry: written)
            == SpecError(path: "sections[0].layout.itemSpacng", reason: "unknown key; did you mean itemSpacing?"))
    }

    @Test("the nearest key wins, within one edit for short keys and two for longer ones; a swap is one edit")
    func closest() {
        let known = ["length", "lineSpacing", "itemSpacing", "top"]
        #expect(LayoutParameters.closestKey(to: "lenght", in: known) == "length")
        #expect(LayoutParameters.closestKey(to: "lineSpcing", in: known) == "lineSpacing")
        #expect(LayoutParameters.closestKey(to: "ITEMSPACING", in: known) == "itemSpacing")
        #expect(LayoutParameters.closestKey(to: "tp", in: known) == "top")
        #expect(LayoutParameters.closestKey(to: "tpo", in: known) == "top")
        #expect(LayoutParameters.closestKey(to: "xy", in: known) == nil)
        #expect(LayoutParameters.closestKey(to: "lenxxx", in: known) == nil)
        #expect(LayoutParameters.closestKey(to: "", in: known) == nil)
    }
}
