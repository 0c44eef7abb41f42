import Testing
import TesseraLayout

/// A consumer of our own that rebuilds every element from what the engine
/// streams: cells relative to their section's origin, the section's
/// geometry at its end.
struct ElementCollector: LayoutConsumer {
    let axis: Axis
    let crossExtent: Double
    let chunkSize: Int
    private(set) var elements: [LayoutElement] = []
    private(set) var events: [String] = []
    private(set) var problems: [String] = []
    private var open: (section: Int, cells: [LayoutElement])?

    init(axis: Axis, crossExtent: Double, chunkSize: Int) {
        self.axis = axis
        self.crossExtent = crossExtent
        self.chunkSize = chunkSize
    }

    mutating func beginSection(_ index: Int, origin: SectionOrigin) throws {
        if let open { problems.append("section \(index) began inside section \(open.section)") }
        open = (index, [])
        events.append("begin \(index)")
    }

    mutating func consumeCells(_ frames: [PlacedFrame], section: Int, origin: SectionOrigin) throws {
        guard section == open?.section else { return problems.append("cells of section \(section) outside it") }
        if frames.count > chunkSize { problems.append("a chunk of \(frames.count) cells") }
        events.append("\(frames.count) cells")
        for placed in frames {
            let frame = axis.screenRect(origin.absolute(placed.frame))
            open?.cells.append(LayoutElement(kind: .cell, section: section, item: placed.item, frame: frame))
        }
    }

    mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws {
        guard let section = open, section.section == geometry.index else { return problems.append("section \(geometry.index) ended unopened") }
        open = nil
        events.append("end \(geometry.index)")
        func supplementary(_ kind: LayoutElement.Kind, _ frame: LocalFrame?) {
            if let frame { elements.append(LayoutElement(kind: kind, section: geometry.index, frame: axis.screenRect(frame))) }
        }
        supplementary(.header, geometry.headerFrame(crossExtent: crossExtent))
        elements += section.cells.sorted { ($0.item ?? 0) < ($1.item ?? 0) }
        supplementary(.footer, geometry.footerFrame(crossExtent: crossExtent))
        supplementary(.background, geometry.backgroundFrame(crossExtent: crossExtent))
    }
}

extension PublicAPITests {
    @Test("a streaming consumer of our own receives every element, section by section, in chunks", arguments: [Axis.vertical, .horizontal])
    func streamingConsumer(axis: Axis) throws {
        let json = """
        {"format": 1, "axis": "\(axis.rawValue)", "sectionSpacing": 8, "sections": [
          {"layout": {"kind": "flow", "alignment": "center"}, "header": {"size": 12, "pinned": true}, "background": true,
           "insets": {"top": 3, "left": 4, "bottom": 5, "right": 6}, "items": {"count": 9, "cycle": [{"size": [30, 20]}, {"size": [45, 10]}]}},
          {"layout": {"kind": "flow"}},
          {"layout": {"kind": "stack", "spacing": 2}, "footer": {"size": 7}, "items": [{}, {"length": 3}, {}, {}, {}]},
          {"layout": {"kind": "staggered", "columns": 3}, "items": {"count": 11, "cycle": [{"aspectRatio": 2}, {"length": 70}]}}
        ]}
        """
        let spec = try Spec(jsonText: json, registry: Self.registry)
        let engine = LayoutEngine(chunkSize: 4)
        var collector = ElementCollector(axis: axis, crossExtent: 200, chunkSize: 4)
        let summary = try engine.run(spec, crossExtent: 200, into: &collector)
        let result = try engine.layout(spec, crossExtent: 200)

        #expect(collector.problems == [])
        #expect(collector.elements == result.elements)
        #expect(summary == result.summary)
        // Flow holds a line back until it is complete, so its chunks follow
        // lines; the others write every item at once.
        #expect(collector.events.first == "begin 0")
        #expect(collector.events.filter { $0.hasPrefix("begin") } == ["begin 0", "begin 1", "begin 2", "begin 3"])
        #expect(collector.events.filter { $0.hasPrefix("end") } == ["end 0", "end 1", "end 2", "end 3"])
        #expect(collector.events.drop { $0 != "begin 3" } == ["begin 3", "4 cells", "4 cells", "3 cells", "end 3"])
    }
}
