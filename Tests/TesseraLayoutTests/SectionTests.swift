import Testing
@testable import TesseraLayout

@Suite("sections, supplementaries and content size")
struct SectionTests {
    @Test("parts stack: header, insets, items, insets, footer; spacing only between non-empty sections")
    func stacking() throws {
        let result = try layout("""
        {"format": 1, "sectionSpacing": 10, "sections": [
          {"layout": {"kind": "flow"}, "header": {"size": 30}, "footer": {"size": 20}, "background": true,
           "insets": {"top": 5, "bottom": 7, "left": 3}, "items": [{"size": [50, 40]}]},
          {"layout": {"kind": "flow"}, "items": []},
          {"layout": {"kind": "grid", "fraction": 2}, "items": [{}, {}, {}]}
        ]}
        """, extent: 200)
        #expect(result.elements.map(\.jsonText) == [
            #"{"kind": "header", "section": 0, "frame": [0, 0, 200, 30], "zIndex": 1}"#,
            #"{"kind": "cell", "section": 0, "item": 0, "frame": [3, 35, 50, 40], "zIndex": 0}"#,
            #"{"kind": "footer", "section": 0, "frame": [0, 82, 200, 20], "zIndex": 1}"#,
            #"{"kind": "background", "section": 0, "frame": [0, 0, 200, 102], "zIndex": -1}"#,
            // The empty section adds nothing: no spacing before or after it.
            #"{"kind": "cell", "section": 2, "item": 0, "frame": [0, 112, 100, 100], "zIndex": 0}"#,
            #"{"kind": "cell", "section": 2, "item": 1, "frame": [100, 112, 100, 100], "zIndex": 0}"#,
            #"{"kind": "cell", "section": 2, "item": 2, "frame": [0, 212, 100, 100], "zIndex": 0}"#,
        ])
        #expect(result.contentSize == Size(width: 200, height: 312))
        #expect(result.sections[1].isEmpty)
        #expect(result.sections[1].start == 102)
    }

    @Test("a section with a header and no items is not empty: it gets spacing, insets and a background")
    func headerOnlySection() throws {
        let result = try layout("""
        {"format": 1, "sectionSpacing": 8, "sections": [
          {"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]},
          {"layout": {"kind": "flow"}, "header": {"size": 12}, "insets": {"top": 1, "bottom": 2}, "background": true}
        ]}
        """, extent: 100)
        #expect(result.elements(ofSection: 1).map(\.frame) == [
            Rect(x: 0, y: 18, width: 100, height: 12),
            Rect(x: 0, y: 18, width: 100, height: 15),
        ])
        #expect(result.contentSize.height == 33)
    }

    @Test("a horizontal spec stacks sections along x; headers span the full height")
    func horizontalSections() throws {
        let result = try layout("""
        {"format": 1, "axis": "horizontal", "sectionSpacing": 4, "sections": [
          {"layout": {"kind": "grid", "fraction": 2, "aspectRatio": 2}, "header": {"size": 10}, "insets": {"left": 1, "top": 6, "bottom": 4},
           "items": [{}, {}]},
          {"layout": {"kind": "flow"}, "footer": {"size": 5}, "items": [{"size": [20, 30]}]}
        ]}
        """, extent: 110)
        // avail = 110 − 6 − 4 = 100 along y; each grid item is 50 high and
        // 50 · 2 = 100 wide on screen.
        #expect(result.elements.map(\.frame) == [
            Rect(x: 0, y: 0, width: 10, height: 110),
            Rect(x: 11, y: 6, width: 100, height: 50),
            Rect(x: 11, y: 56, width: 100, height: 50),
            Rect(x: 115, y: 0, width: 20, height: 30),
            Rect(x: 135, y: 0, width: 5, height: 110),
        ])
        #expect(result.contentSize == Size(width: 140, height: 110))
    }

    @Test("element(section:item:) finds cells by section and item, nothing else")
    func elementLookup() throws {
        let result = try layout("""
        {"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{"size": [10, 10]}]},
                                   {"layout": {"kind": "flow"}, "items": [{"size": [20, 20]}, {"size": [30, 30]}]}]}
        """, extent: 100)
        #expect(result.element(section: 1, item: 1)?.frame == Rect(x: 20, y: 10, width: 30, height: 30))
        #expect(result.element(section: 0, item: 1) == nil)
        #expect(result.element(section: 2, item: 0) == nil)
    }

    @Test("items from an NDJSON file, blank lines skipped")
    func itemsFromFile() throws {
        let directory = "/tmp/tessera-tests-\(UInt64.random(in: 0...UInt64.max))"
        defer {
            for file in ["/items.ndjson", "/spec.json"] { _ = remove(directory + file) }
            _ = rmdir(directory)
        }
        try writeFile(directory + "/items.ndjson", "{\"size\": [10, 5]}\n\n{\"size\": [20, 5]}\r\n{\"size\": [30, 5]}")
        try writeFile(directory + "/spec.json", """
        {"format": 1, "sections": [{"layout": {"kind": "flow", "alignment": "start"}, "items": {"file": "items.ndjson"}}]}
        """)
        let spec = try Spec(contentsOfFile: directory + "/spec.json")
        let result = try LayoutEngine().layout(spec, crossExtent: 100)
        #expect(cellFrames(result) == [[0, 0, 10, 5], [10, 0, 20, 5], [30, 0, 30, 5]])
        try writeFile(directory + "/items.ndjson", "{\"size\": [10, 5]}\n{\"size\": [-1, 5]}\n")
        #expect(throws: SpecError(path: "sections[0].items[1].size", reason: "lengths must be finite and at least 0, got -1")) {
            try LayoutEngine().layout(Spec(contentsOfFile: directory + "/spec.json"), crossExtent: 100)
        }
    }
}

/// Writes a file, creating its directory.
func writeFile(_ path: String, _ text: String) throws {
    let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    _ = directory.withCString { mkdir($0, 0o755) }
    guard let file = fopen(path, "wb") else { throw SpecError(path: "", reason: "cannot write \(path)") }
    defer { fclose(file) }
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
}

#if canImport(Glibc)
import Glibc
#endif

@Suite("items files must be regular files")
struct ItemsFileKindTests {
    /// A spec whose only section reads its items from `path`.
    static func spec(reading path: String) throws -> Spec {
        try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": "\#(path)"}}]}"#)
    }

    @Test("a FIFO is refused at once, naming the path, instead of waiting forever for a writer")
    func fifo() throws {
        let path = "/tmp/tessera-fifo-\(UInt64.random(in: 0...UInt64.max))"
        #expect(mkfifo(path, 0o600) == 0)
        defer { _ = remove(path) }
        #expect(throws: SpecError(path: "sections[0].items.file", reason: "'\(path)' is a FIFO; items files must be regular files")) {
            try LayoutEngine().layout(Self.spec(reading: path), crossExtent: 100)
        }
    }

    @Test("a directory and a device are refused, naming the path")
    func directoryAndDevice() throws {
        #expect(throws: SpecError(path: "sections[0].items.file", reason: "'/tmp' is a directory; items files must be regular files")) {
            try LayoutEngine().layout(Self.spec(reading: "/tmp"), crossExtent: 100)
        }
        #expect(throws: SpecError(path: "sections[0].items.file", reason: "'/dev/zero' is a device; items files must be regular files")) {
            try LayoutEngine().layout(Self.spec(reading: "/dev/zero"), crossExtent: 100)
        }
    }
}
