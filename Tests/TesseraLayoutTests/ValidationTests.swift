import Testing
@testable import TesseraLayout

@Suite("validation: every rule names its JSON path")
struct ValidationTests {
    /// (spec, expected path, a fragment of the expected reason)
    static let cases: [(String, String, String)] = [
        (#"[1]"#, "", "must be a JSON object"),
        (#"{"sections": []}"#, "format", "is required"),
        (#"{"format": 2, "sections": []}"#, "format", "unsupported format 2"),
        (#"{"format": 1.5, "sections": []}"#, "format", "must be an integer"),
        (#"{"format": 1}"#, "sections", "is required"),
        (#"{"format": 1, "sections": {}}"#, "sections", "must be an array"),
        (#"{"format": 1, "axis": "diagonal", "sections": []}"#, "axis", "must be one of \"vertical\", \"horizontal\""),
        (#"{"format": 1, "name": 3, "sections": []}"#, "name", "must be a string"),
        (#"{"format": 1, "sectionSpacing": -1, "sections": []}"#, "sectionSpacing", "must not be negative"),
        (#"{"format": 1, "sectionSpacing": 1e999, "sections": []}"#, "sectionSpacing", "must be a finite number"),
        (#"{"format": 1, "sections": [3]}"#, "sections[0]", "a section must be an object"),
        (#"{"format": 1, "sections": [{}]}"#, "sections[0].layout", "is required"),
        (#"{"format": 1, "sections": [{"layout": {}}]}"#, "sections[0].layout.kind", "is required"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "spiral"}}]}"#, "sections[0].layout.kind", "unknown kind \"spiral\""),
        (#"{"format": 1, "sections": [{"layout": {"kind": 1}}]}"#, "sections[0].layout.kind", "must be a string"),
        (#"{"format": 1, "sections": [{"id": [], "layout": {"kind": "flow"}}]}"#, "sections[0].id", "must be a string or an integer"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "insets": {"top": -2}}]}"#, "sections[0].insets.top", "must not be negative"),
        (#"{"format": 1, "sections": [{"id": "a", "layout": {"kind": "flow"}}, {"id": 7, "layout": {"kind": "flow"}}, {"id": "a", "layout": {"kind": "flow"}}]}"#, "sections[2].id", "duplicate id \"a\" (sections[0] has it too)"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "insets": {"left": 300, "right": 100}}]}"#, "sections[0].insets", "exceed the container's extent"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "header": {}}]}"#, "sections[0].header.size", "is required"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "footer": {"size": 4, "pinned": 1}}]}"#, "sections[0].footer.pinned", "must be true or false"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "background": "yes"}]}"#, "sections[0].background", "must be true or false"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": 3}]}"#, "sections[0].items", "must be an array of items"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [1]}]}"#, "sections[0].items[0]", "an item must be an object"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": -1, "cycle": [{}]}}]}"#, "sections[0].items.count", "must be at least 0"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 3}}]}"#, "sections[0].items.cycle", "is required"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 3, "cycle": []}}]}"#, "sections[0].items.cycle", "must not be empty"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": "/nonexistent/items.ndjson"}}]}"#, "sections[0].items.file", "cannot read '/nonexistent/items.ndjson'"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": 7}}]}"#, "sections[0].items.file", "must be a string"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow", "itemSize": [1]}}]}"#, "sections[0].layout.itemSize", "two numbers"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow", "itemSize": [1, -1]}}]}"#, "sections[0].layout.itemSize[1]", "must not be negative"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow", "itemSpacing": "wide"}}]}"#, "sections[0].layout.itemSpacing", "must be a number"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow", "alignment": "left"}}]}"#, "sections[0].layout.alignment", "must be one of"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": [{}, {"size": "big"}]}]}"#, "sections[0].items[1].size", "two numbers"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 9, "cycle": [{}, {"size": [1, -3]}]}}]}"#, "sections[0].items.cycle[1].size", "at least 0"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 0}}]}"#, "sections[0].layout.fraction", "must be at least 1"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "grid", "aspectRatio": 0}}]}"#, "sections[0].layout.aspectRatio", "must be above 0"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "grid"}, "items": [{"fraction": 2.5}]}]}"#, "sections[0].items[0].fraction", "must be an integer, got 2.5"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "grid"}, "items": [{"aspectRatio": -1}]}]}"#, "sections[0].items[0].aspectRatio", "above 0"),
        (#"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 300}, "items": [{}]}]}"#, "sections[0].layout.fraction", "need 600 points of spacing"),
    ]

    @Test("bad specs are rejected with the path of the value at fault", arguments: cases.indices)
    func rejected(index: Int) {
        let (json, path, reason) = Self.cases[index]
        let error = specError(json)
        #expect(error?.path == path, "\(json)")
        #expect(error?.reason.contains(reason) == true, "\(json): \(String(describing: error?.reason))")
    }

    @Test("fields a kind does not read are not validated; null counts as absent")
    func unreadFieldsIgnored() throws {
        let result = try layout("""
        {"format": 1, "name": null, "sections": [{"layout": {"kind": "flow", "itemSpacing": null},
          "items": [{"size": [10, 10], "columns": 0, "scale": -4, "aspectRatio": "tall", "fraction": 1.5}, {"size": null}]}]}
        """, extent: 100)
        // The first item is centred on the line of the second (default 50×50).
        #expect(cellFrames(result) == [[0, 20, 10, 10], [10, 0, 50, 50]])
    }

    @Test("syntax errors give the line and column")
    func syntaxErrors() {
        let error = specError("{\"format\": 1,\n \"sections\": [,]}")
        #expect(error?.reason.contains("line 2, column 15") == true, "\(String(describing: error))")
        #expect(specError(#"{"format": 1, "format": 1, "sections": []}"#)?.reason.contains("duplicate key \"format\"") == true)
    }

    @Test("an unexpected byte that is not printable ASCII is named in hex, so the message stays one line of text")
    func unexpectedBytes() throws {
        // Found by the mutation test: these bytes were printed as they are (a NUL, an escape, a stray byte of UTF-8 as U+0085, a line break).
        for (byte, shown) in [(0x00, "byte 0x00"), (0x1B, "byte 0x1B"), (0x7F, "byte 0x7F"), (0x85, "byte 0x85"), (0xE2, "byte 0xE2"), (0x0B, "byte 0x0B"), (0x3B, "character ';'")] {
            let bytes = Array(#"{"format": 1, "sections": "#.utf8) + [UInt8(byte)] + Array("]}".utf8)
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("byte \(byte) parsed")
            } catch {
                #expect(error.description == "line 1, column 27: unexpected \(shown)")
            }
        }
    }

    @Test("a UTF-8 byte order mark is named, where the text starts and anywhere else a value is expected")
    func byteOrderMark() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let reason = "a UTF-8 byte order mark (bytes EF BB BF), which JSON text must not carry: save it as UTF-8 without a BOM"
        for (bytes, column) in [(bom + Array(#"{"format": 1, "sections": []}"#.utf8), 1), (Array(#"{"format": "#.utf8) + bom + Array("1}".utf8), 12)] {
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("a byte order mark parsed")
            } catch {
                #expect(error.description == "line 1, column \(column): \(reason)")
            }
        }
        // Its first byte alone is still a stray byte.
        do {
            _ = try JSONParser.parse([0xEF, 0x7B, 0x7D])
            Issue.record("a stray byte parsed")
        } catch {
            #expect(error.description == "line 1, column 1: unexpected byte 0xEF")
        }
    }

    @Test("the container extent must be finite and above zero")
    func crossExtent() throws {
        let spec = try Spec(jsonText: #"{"format": 1, "sections": []}"#)
        #expect(throws: SpecError.self) { try LayoutEngine().layout(spec, crossExtent: 0) }
        #expect(throws: SpecError.self) { try LayoutEngine().layout(spec, crossExtent: .nan) }
    }
}

@Suite("specs through Swift's coders")
struct SpecCodableTests {
    @Test("a spec encodes and decodes through JSONEncoder and JSONDecoder to the same layout")
    func roundTrip() throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "axis": "horizontal", "sections": [{"id": "a", "layout": {"kind": "mozaik", "columns": [40, 60], "rowHeight": 30},
          "header": {"size": 12, "pinned": true}, "items": [{"columns": 2}, {"rows": 2}, {}]}]}
        """)
        let data = try JSONEncoder().encode(spec)
        let decoded = try JSONDecoder().decode(Spec.self, from: data)
        #expect(decoded.canonicalText == spec.canonicalText)
        #expect(try LayoutEngine().layout(decoded, crossExtent: 100).elements == LayoutEngine().layout(spec, crossExtent: 100).elements)
    }

    @Test("decoding validates: the error names the JSON path")
    func validates() {
        let data = Array(#"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 0}}]}"#.utf8)
        #expect(throws: SpecError(path: "sections[0].layout.fraction", reason: "must be at least 1, got 0")) {
            _ = try JSONDecoder().decode(Spec.self, from: Data(data))
        }
    }
}

import Foundation
