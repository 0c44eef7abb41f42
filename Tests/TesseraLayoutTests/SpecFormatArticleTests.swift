import Foundation
import Testing
@testable import TesseraLayout

/// The spec format article names every parameter a kind reads, in the
/// kind's own section, and every item field.
@Suite("docs: the spec format article covers every kind's parameters")
struct SpecFormatArticleTests {
    static let article: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/TesseraLayout/TesseraLayout.docc/SpecFormat.md")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    /// The text of the article's `### kind` section, up to the next heading of that level or above.
    static func section(_ kind: String) -> String? {
        let lines = article.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "### \(kind)") else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("## ") || $0.hasPrefix("### ") } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    @Test("every kind of the standard registry has a section naming each of its parameter keys")
    func kindParameters() throws {
        #expect(!Self.article.isEmpty)
        let registry = LayoutRegistry.standard
        #expect(registry.kinds.count == 7)
        for kind in registry.kinds {
            let keys = try #require(registry.parameterKeys(of: kind), "\(kind) is registered without its keys")
            let text = try #require(Self.section(kind), "no ### \(kind) section in SpecFormat.md")
            for key in keys {
                #expect(text.contains("`\(key)`"), "SpecFormat.md, ### \(kind): parameter `\(key)` is missing")
            }
        }
    }

    @Test("the pattern section names every block and spacing field")
    func patternFields() throws {
        let text = try #require(Self.section("pattern"))
        for key in PatternLayout.Block.parameterFields.map(\.key) + PatternLayout.Spacing.parameterFields.map(\.key) {
            #expect(text.contains("`\(key)`") || text.contains("\"\(key)\""), "SpecFormat.md, ### pattern: `\(key)` is missing")
        }
    }

    @Test("the item table names every item field")
    func itemFields() throws {
        for field in Item.Field.allCases {
            #expect(Self.article.contains("| `\(field.rawValue)` |"), "SpecFormat.md: item field `\(field.rawValue)` is missing from the table")
        }
    }
}
