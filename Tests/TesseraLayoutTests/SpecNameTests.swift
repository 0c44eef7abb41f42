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
}
