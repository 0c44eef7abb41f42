import Testing
@testable import TesseraLayout
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Rules the first validation table did not reach: non-finite numbers,
/// fractions where integers are required, null on required fields, negative
/// supplementary sizes, layouts that are not objects, and items files.
/// Each case asserts the whole error: the JSON path and the rule.
@Suite("validation: more rules, each with its exact path and reason")
struct ValidationPathTests {
    /// One section of the given layout and items.
    static func spec(_ layout: String, items: String = "[{}]", extra: String = "") -> String {
        #"{"format": 1, "sections": [{"layout": \#(layout), "items": \#(items)\#(extra)}]}"#
    }

    static let cases: [(json: String, path: String, reason: String)] = [
        // 1e999 reads as infinity: a number, but not a finite one.
        (spec(#"{"kind": "flow"}"#, items: #"[{"size": [1e999, 10]}]"#),
         "sections[0].items[0].size", "lengths must be finite and at least 0, got inf"),
        (spec(#"{"kind": "grid"}"#, items: #"[{}, {"aspectRatio": 1e999}]"#),
         "sections[0].items[1].aspectRatio", "must be a finite number above 0, got inf"),
        (spec(#"{"kind": "staggered", "columns": 2}"#, items: #"[{"length": 1e999}]"#),
         "sections[0].items[0].length", "must be a finite number of at least 0, got inf"),
        (spec(#"{"kind": "staggered", "columns": 2}"#, items: #"[{"length": -1e999}]"#),
         "sections[0].items[0].length", "must be a finite number of at least 0, got -inf"),
        (spec(#"{"kind": "flow", "itemSpacing": 1e999}"#), "sections[0].layout.itemSpacing", "must be a finite number"),
        (spec(#"{"kind": "mozaik", "columnCount": 2, "rowHeight": 1e999}"#), "sections[0].layout.rowHeight", "must be a finite number"),
        (spec(#"{"kind": "mozaik", "columns": [10, 1e999], "rowHeight": 5}"#), "sections[0].layout.columns[1]", "must be a finite number"),
        (spec(#"{"kind": "staggered", "columns": 1e999}"#), "sections[0].layout.columns", "must be a finite number"),
        (spec(#"{"kind": "flow"}"#, extra: #", "header": {"size": 1e999}"#), "sections[0].header.size", "must be a finite number"),

        // Integers reject fractions.
        (spec(#"{"kind": "flow"}"#, items: #"{"count": 2.5, "cycle": [{}]}"#), "sections[0].items.count", "must be an integer, got 2.5"),
        (spec(#"{"kind": "mozaik", "columnCount": 3, "rowHeight": 5}"#, items: #"[{}, {"columns": 1.5}]"#),
         "sections[0].items[1].columns", "must be an integer, got 1.5"),
        (spec(#"{"kind": "mozaik", "columnCount": 3, "rowHeight": 5}"#, items: #"{"count": 4, "cycle": [{"columns": 2.5}]}"#),
         "sections[0].items.cycle[0].columns", "must be an integer, got 2.5"),
        (spec(#"{"kind": "staggered", "columns": 3}"#, items: #"[{"columns": 1.5}]"#),
         "sections[0].items[0].columns", "must be an integer, got 1.5"),
        (spec(#"{"kind": "staggered", "columns": 2.5}"#), "sections[0].layout.columns", "must be an integer, got 2.5"),

        // JSON null counts as absent, so on a required field it is missing.
        (#"{"format": null, "sections": []}"#, "format", "is required (this version reads format 1)"),
        (#"{"format": 1, "sections": null}"#, "sections", "is required"),
        (#"{"format": 1, "sections": [{"layout": null}]}"#, "sections[0].layout", "is required"),
        (spec(#"{"kind": null}"#), "sections[0].layout.kind",
         "is required (one of flow, grid, mosaic, mozaik, pattern, scaledGrid, staggered)"),
        (spec(#"{"kind": "mozaik", "columnCount": 2, "rowHeight": null}"#), "sections[0].layout.rowHeight", "is required"),
        (spec(#"{"kind": "staggered", "columns": null}"#), "sections[0].layout.columns", "is required"),
        (spec(#"{"kind": "scaledGrid", "divisions": null}"#), "sections[0].layout.divisions", "is required"),
        (spec(#"{"kind": "pattern", "blocks": null}"#), "sections[0].layout.blocks", "is required"),
        (spec(#"{"kind": "flow"}"#, extra: #", "header": {"size": null}"#), "sections[0].header.size", "is required"),
        (spec(#"{"kind": "flow"}"#, items: #"{"count": 2, "cycle": null}"#), "sections[0].items.cycle", "is required with count"),

        // Supplementary sizes are lengths: not negative.
        (spec(#"{"kind": "flow"}"#, extra: #", "header": {"size": -1}"#), "sections[0].header.size", "must not be negative, got -1"),
        (spec(#"{"kind": "flow"}"#, extra: #", "footer": {"size": -0.5, "pinned": true}"#),
         "sections[0].footer.size", "must not be negative, got -0.5"),

        // A layout is an object with a kind.
        (spec(#""flow""#), "sections[0].layout", "must be an object with a \"kind\", got a string"),
        (spec(#"["flow"]"#), "sections[0].layout", "must be an object with a \"kind\", got an array"),
        (spec("7"), "sections[0].layout", "must be an object with a \"kind\", got a number"),
    ]

    @Test("each rule names the path of the value at fault", arguments: cases.indices)
    func rejected(index: Int) {
        let (json, path, reason) = Self.cases[index]
        #expect(specError(json) == SpecError(path: path, reason: reason), "\(json)")
    }

    /// The error laying out a spec whose only section reads `lines` as its
    /// items file, with the file's path.
    static func itemsFileError(_ lines: String, layout: String = #"{"kind": "flow"}"#) throws -> (error: SpecError?, file: String) {
        let directory = "/tmp/tessera-tests-\(UInt64.random(in: 0...UInt64.max))"
        try writeFile(directory + "/items.ndjson", lines)
        try writeFile(directory + "/spec.json", #"{"format": 1, "sections": [{"layout": \#(layout), "items": {"file": "items.ndjson"}}]}"#)
        defer {
            for file in ["/items.ndjson", "/spec.json"] { _ = remove(directory + file) }
            _ = rmdir(directory)
        }
        do {
            _ = try LayoutEngine().layout(Spec(contentsOfFile: directory + "/spec.json"), crossExtent: 100)
            return (nil, directory + "/items.ndjson")
        } catch let error as SpecError {
            return (error, directory + "/items.ndjson")
        }
    }

    @Test("items files: blank lines before a bad line are not counted in its index")
    func fileBlankLinesBeforeBadLine() throws {
        let (error, _) = try Self.itemsFileError("\n  \n{\"size\": [10, 5]}\n\r\n\t\n{\"size\": [20, 5]}\n\n{\"size\": [1, -2]}\n")
        #expect(error == SpecError(path: "sections[0].items[2].size", reason: "lengths must be finite and at least 0, got -2"))
        let (first, _) = try Self.itemsFileError("\n\n\n{\"aspectRatio\": 1e999}\n", layout: #"{"kind": "grid"}"#)
        #expect(first == SpecError(path: "sections[0].items[0].aspectRatio", reason: "must be a finite number above 0, got inf"))
    }

    @Test("items files: a line that is not JSON names the item, the file line and the column")
    func fileSyntaxError() throws {
        let (error, file) = try Self.itemsFileError("{\"size\": [10, 5]}\n\n{\"size\": [10, 5]}\n{\"size\": [10,]}\n{}\n")
        #expect(error == SpecError(
            path: "sections[0].items[2]",
            reason: "line 4 of '\(file)' is not valid JSON: unexpected character ']' at column 14"
        ))
        let (notObject, _) = try Self.itemsFileError("{}\n\n[1, 2]\n")
        #expect(notObject == SpecError(path: "sections[0].items[1]", reason: "an item must be an object, got an array"))
    }
}

@Suite("values quoted in errors are shortened")
struct QuotedValueTests {
    @Test("a 1 MB kind gives a short error that still names the path and starts the value")
    func longKind() throws {
        let kind = String(repeating: "k", count: 1 << 20)
        let error = try #require(throws: SpecError.self) {
            try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "\#(kind)"}}]}"#)
        }
        #expect(error.path == "sections[0].layout.kind")
        #expect(error.description.count < 300)
        #expect(error.reason.hasPrefix("unknown kind \"" + String(repeating: "k", count: 60) + "…\""))
    }

    @Test("control characters and quotes in a quoted value are escaped")
    func escaped() {
        #expect("a\"b\nc\u{1}".quotedForMessage == #""a\"b\nc\u0001""#)
        #expect("short".quotedForMessage == "\"short\"")
        // JSON lets DEL, C1 controls and U+2028/U+2029 through; a message escapes them too.
        #expect("a\u{7F}\u{85}\u{2028}\u{2029}é".quotedForMessage == #""a\u007F\u0085\u2028\u2029é""#)
        // File paths in messages escape them alike (the libFuzzer target found a path with DEL printed as it was).
        #expect("/tmp/i\u{7F}\u{85}\u{2028}\n.ndjson".quotedPathForMessage == #"'/tmp/i\u007F\u0085\u2028\n.ndjson'"#)
        let long = "/tmp/" + String(repeating: "\u{7F}", count: 200) + "items.ndjson"
        #expect(!long.quotedPathForMessage.unicodeScalars.contains { $0.value == 0x7F })
    }

    /// The libFuzzer target found an unknown kind of "sca" and 450 DEL: each
    /// escaped to six characters, its first 60 characters made a message
    /// of 452. The limit is on the escaped text, and no escape is cut.
    @Test("a value of characters escaped to six stays short, its escapes whole")
    func escapedRun() throws {
        #expect(("sca" + String(repeating: "\u{7F}", count: 450)).quotedForMessage
            == "\"sca" + String(repeating: #"\u007F"#, count: 9) + "…\"")
        #expect(String(repeating: "é", count: 61).quotedForMessage == "\"" + String(repeating: "é", count: 60) + "…\"")
        #expect(String(repeating: "\n", count: 30).quotedForMessage == "\"" + String(repeating: #"\n"#, count: 30) + "\"")
        #expect(String(repeating: "\n", count: 31).quotedForMessage == "\"" + String(repeating: #"\n"#, count: 30) + "…\"")
        let kind = "sca" + String(repeating: "\u{7F}", count: 450)
        let error = try #require(throws: SpecError.self) {
            try Spec(json: .object(JSONObject(["format": .number(1), "sections": .array([
                .object(JSONObject(["layout": .object(JSONObject(["kind": .string(kind)]))]))])])))
        }
        #expect(error.reason.count + error.path.count <= 250)
    }
}

@Suite("strict UTF-8 in JSON")
struct StrictUTF8Tests {
    /// Parses `bytes` as a JSON document; the error's text, or nil.
    static func parseError(_ bytes: [UInt8]) -> String? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a stray byte, an overlong form or an encoded surrogate in a string is an error at its line and column, never replaced")
    func invalidBytes() {
        let prefix = Array(#"{"format": 1,"#.utf8) + [0x0A] + Array(#" "name": "bad"#.utf8)
        for invalid: [UInt8] in [[0xFF, 0xFE], [0xFE, 0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82]] {
            let document = prefix + invalid + Array(#"name"}"#.utf8)
            #expect(Self.parseError(document) == "line 2, column 14: invalid UTF-8 in a string", "\(invalid)")
        }
        // The same in a key, and after an escape.
        #expect(Self.parseError(Array(#"{"k"#.utf8) + [0xFF] + Array(#"": 1}"#.utf8)) == "line 1, column 4: invalid UTF-8 in a string")
        #expect(Self.parseError(Array(#"["\n"#.utf8) + [0xFF] + Array(#""]"#.utf8)) == "line 1, column 5: invalid UTF-8 in a string")
        // Valid multi-byte text is untouched.
        #expect(Self.parseError(Array(#"["é€😀", "\u00e9"]"#.utf8)) == nil)
    }

    @Test("two names that differ only in invalid bytes no longer read as the same name: both are refused")
    func namesDoNotCollide() throws {
        let directory = "/tmp/tessera-utf8-\(UInt64.random(in: 0...UInt64.max))"
        defer {
            for file in ["/a.json", "/b.json"] { _ = remove(directory + file) }
            _ = rmdir(directory)
        }
        _ = directory.withCString { mkdir($0, 0o755) }
        for (file, bytes) in [("/a.json", [UInt8](arrayLiteral: 0xFF, 0xFE)), ("/b.json", [0xFE, 0xFF])] {
            let document = Array(#"{"format": 1, "name": "bad"#.utf8) + bytes + Array(#"name", "sections": []}"#.utf8)
            guard let handle = fopen(directory + file, "wb") else { Issue.record("cannot write"); return }
            _ = document.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
            fclose(handle)
            let error = try #require(throws: SpecError.self) { try Spec(contentsOfFile: directory + file) }
            #expect(error.reason.contains("invalid UTF-8 in a string"))
        }
    }
}

@Suite("bounded input: item counts and items-file lines")
struct BoundedInputTests {
    @Test("a count above a spec's limit is an error at its path; so are sections that add up past it")
    func counts() throws {
        let huge = try #require(throws: SpecError.self) {
            try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 1e15, "cycle": [{}]}}]}"#)
        }
        #expect(huge.path == "sections[0].items.count")
        #expect(huge.reason == "must be at most 1000000000 (a spec's item limit), got 1000000000000000")
        let together = try #require(throws: SpecError.self) {
            try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 600000000, "cycle": [{}]}}, {"layout": {"kind": "flow"}, "items": {"count": 600000000, "cycle": [{}]}}]}"#)
        }
        #expect(together.path == "sections")
        #expect(together.reason == "hold 1200000000 items in all, more than a spec's limit of 1000000000")
        #expect(try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"count": 1000000000, "cycle": [{}]}}]}"#).sections.count == 1)
    }

    @Test("an items-file line over 1 MiB is an error naming its line, before it is parsed")
    func longLine() throws {
        let directory = "/tmp/tessera-long-line-\(UInt64.random(in: 0...UInt64.max))"
        defer {
            _ = remove(directory + "/items.ndjson")
            _ = rmdir(directory)
        }
        let long = "{\"size\": [10, 10], \"note\": \"" + String(repeating: "x", count: (1 << 20) + 10) + "\"}"
        try writeFile(directory + "/items.ndjson", "{\"size\": [10, 10]}\n\n" + long + "\n")
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": {"file": "\#(directory)/items.ndjson"}}]}"#)
        #expect(throws: SpecError(path: "sections[0].items[1]", reason: "line 3 of '\(directory)/items.ndjson' is longer than 1048576 bytes")) {
            try LayoutEngine().layout(spec, crossExtent: 100)
        }
    }
}
