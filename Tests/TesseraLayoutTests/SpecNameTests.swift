import Testing
@testable import TesseraLayout

/// The rule for spec names: not empty, at most 256 bytes of UTF-8, no
/// control characters or line breaks; broken in a spec's `"name"`, it is an error at `name`.
@Suite("spec names: not empty, at most 256 bytes, no control characters or line breaks")
struct SpecNameTests {
    private func spec(named name: String) -> String {
        #"{"format": 1, "name": \#(JSONWriter.quote(name)), "sections": []}"#
    }

    private func error(named name: String) -> SpecError? {
        do {
            _ = try Spec(jsonText: spec(named: name))
            return nil
        } catch {
            return error as? SpecError
        }
    }

    @Test("an empty name is an error at name")
    func empty() {
        #expect(error(named: "") == SpecError(path: "name", reason: "a spec name must not be empty"))
    }

    @Test("a name of more than 256 bytes of UTF-8 is an error; 256 bytes is a name")
    func length() throws {
        #expect(error(named: String(repeating: "a", count: 257))
            == SpecError(path: "name", reason: "a spec name must be at most 256 bytes of UTF-8, got 257 bytes"))
        // 86 characters, but 258 bytes: the limit is on bytes.
        #expect(error(named: String(repeating: "€", count: 86))
            == SpecError(path: "name", reason: "a spec name must be at most 256 bytes of UTF-8, got 258 bytes"))
        let longest = String(repeating: "é", count: 128)
        #expect(longest.utf8.count == 256)
        #expect(try Spec(jsonText: spec(named: longest)).name == longest)
        #expect(Spec.maximumNameBytes == 256)
    }

    @Test("a control character, C0, DEL or C1, is an error that names it and where it is")
    func controlCharacters() throws {
        #expect(error(named: "feed\nnext") == SpecError(path: "name", reason: "a spec name must not contain control characters or line breaks, got U+000A at character 4"))
        #expect(error(named: "\u{0}") == SpecError(path: "name", reason: "a spec name must not contain control characters or line breaks, got U+0000 at character 0"))
        #expect(error(named: "tab\there")?.reason.hasSuffix("got U+0009 at character 3") == true)
        #expect(error(named: "del\u{7F}")?.reason.hasSuffix("got U+007F at character 3") == true)
        #expect(error(named: "é\u{85}")?.reason.hasSuffix("got U+0085 at character 1") == true)
        // Unicode's line and paragraph separators break a line too.
        #expect(error(named: "a\u{2028}b")?.reason.hasSuffix("got U+2028 at character 1") == true)
        #expect(error(named: "\u{2029}")?.reason.hasSuffix("got U+2029 at character 0") == true)
        // Other text is a name: spaces, punctuation, any script, emoji.
        for name in ["home feed", "shop/feeds:2026", "フィード", "🧱 wall", "a-b"] {
            #expect(try Spec(jsonText: spec(named: name)).name == name)
            #expect(Spec.nameProblem(name) == nil, "\(name)")
        }
    }

    @Test("invalid UTF-8 and lone surrogates never reach a name: the parser refuses them")
    func invalidText() {
        let bytes = Array(#"{"format": 1, "name": "a"#.utf8) + [0xFF] + Array(#"", "sections": []}"#.utf8)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(bytes) }
        #expect(error(named: "x") == nil)
        do {
            _ = try Spec(jsonText: #"{"format": 1, "name": "\uD800", "sections": []}"#)
            Issue.record("a lone surrogate was read as a name")
        } catch let error as SpecError {
            #expect(error.reason.contains("unpaired surrogate in a string"), "\(error)")
        } catch {
            Issue.record("not a SpecError: \(error)")
        }
    }

    @Test("a name is read in Normalization Form C: canonically equivalent spellings are one name, by bytes too")
    func normalization() throws {
        let pairs: [(written: String, normal: String)] = [
            ("cafe\u{301}", "caf\u{E9}"),
            ("caf\u{E9}", "caf\u{E9}"),
            // Singletons: the Kelvin and Ångström signs, the Greek question mark.
            ("\u{212A}elvin", "Kelvin"),
            ("\u{212B}", "\u{C5}"),
            ("why\u{37E}", "why;"),
            // Combining marks in canonical order: dot below before dot above.
            ("D\u{307}\u{323}", "\u{1E0C}\u{307}"),
            ("plain-ascii_name 1", "plain-ascii_name 1"),
        ]
        for (written, normal) in pairs {
            #expect(Array(Spec.normalizedName(written).utf8) == Array(normal.utf8), "\(written.unicodeScalars.map(\.hexDigits))")
            #expect(Array(try #require(try Spec(jsonText: spec(named: written)).name).utf8) == Array(normal.utf8))
        }
        // The escaped form reads the same: a name's bytes never depend on how JSON wrote them.
        let escaped = try Spec(jsonText: #"{"format": 1, "name": "cafe\u0301", "sections": []}"#)
        #expect(escaped.name.map { Array($0.utf8) } == Array("caf\u{E9}".utf8))
    }

    @Test("the byte limit applies to the normalized name")
    func normalizedLength() {
        // U+0958 is excluded from composition: its NFC is two scalars, 6 bytes for 3.
        let growing = String(repeating: "\u{958}", count: 80)
        #expect(growing.utf8.count == 240)
        #expect(error(named: growing) == SpecError(path: "name", reason: "a spec name must be at most 256 bytes of UTF-8, got 480 bytes"))
        // 128 decomposed é are 384 bytes written, 256 once composed: a valid name.
        let decomposed = String(repeating: "e\u{301}", count: 128)
        #expect(error(named: decomposed) == nil)
    }
}
