import Foundation
import Testing

/// The repository's documentation stands on its own: every link of
/// README.md and of the DocC catalogs resolves inside the repository, and
/// no tracked text cites a contract file kept outside it.
@Suite("docs: links stay inside the repository and resolve")
struct DocumentationLinkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .standardizedFileURL.path

    /// README.md and every `Sources/*/*.docc/*.md`, relative to the root.
    static func documents() throws -> [String] {
        let files = FileManager.default
        var documents = ["README.md"]
        for target in try files.contentsOfDirectory(atPath: root + "/Sources").sorted() {
            let folder = "Sources/\(target)"
            guard let entries = try? files.contentsOfDirectory(atPath: root + "/" + folder) else { continue }
            for catalog in entries.sorted() where catalog.hasSuffix(".docc") {
                for file in try files.contentsOfDirectory(atPath: "\(root)/\(folder)/\(catalog)").sorted() where file.hasSuffix(".md") {
                    documents.append("\(folder)/\(catalog)/\(file)")
                }
            }
        }
        return documents
    }

    /// The text without fenced code blocks and code spans, where `](…)` and `<doc:…>` are not links.
    static func prose(_ text: String) -> String {
        var lines: [String] = []
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
                continue
            }
            if !fenced { lines.append(line) }
        }
        return lines.joined(separator: "\n").replacingOccurrences(of: "`[^`\n]*`", with: "", options: .regularExpression)
    }

    static func matches(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// What is wrong with a Markdown link target of `document`, or nil.
    static func problem(link: String, in document: String) -> String? {
        let lowered = link.lowercased()
        if ["http://", "https://", "mailto:"].contains(where: lowered.hasPrefix) || link.hasPrefix("#") { return nil }
        if link.hasPrefix("/") || lowered.hasPrefix("file:") { return "an absolute path" }
        let path = String(link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
            .removingPercentEncoding ?? link
        let folder = URL(fileURLWithPath: root + "/" + document).deletingLastPathComponent()
        let target = folder.appendingPathComponent(path).standardizedFileURL.path
        guard target == root || target.hasPrefix(root + "/") else { return "leaves the repository" }
        guard FileManager.default.fileExists(atPath: target) else { return "names no file (\(target.dropFirst(root.count + 1)))" }
        return nil
    }

    @Test("every link of README.md and the catalogs stays in the repository and names a file or an article")
    func links() throws {
        let documents = try Self.documents()
        #expect(documents.contains("Sources/TesseraHummingbird/TesseraHummingbird.docc/HTTPAPI.md"))
        #expect(documents.contains("Sources/TesseraLayout/TesseraLayout.docc/SpecFormat.md"))
        for document in documents {
            let text = Self.prose(try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8))
            for link in try Self.matches(#"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#, in: text) {
                if let problem = Self.problem(link: link, in: document) {
                    Issue.record("\(document): the link \(link) \(problem)")
                }
            }
            let catalog = URL(fileURLWithPath: Self.root + "/" + document).deletingLastPathComponent().path
            for name in try Self.matches(#"<doc:([^>#]+)(?:#[^>]*)?>"#, in: text) {
                let article = name.split(separator: "/").last.map(String.init) ?? name
                if document == "README.md" || !FileManager.default.fileExists(atPath: "\(catalog)/\(article).md") {
                    Issue.record("\(document): <doc:\(name)> names no article of its catalog")
                }
            }
        }
    }

    @Test("the prose check finds the links it must refuse")
    func refusals() {
        #expect(Self.problem(link: "../" + "outside.md", in: "README.md") == "leaves the repository")
        #expect(Self.problem(link: "/etc/hosts", in: "README.md") == "an absolute path")
        #expect(Self.problem(link: "Sources/Missing.md", in: "README.md")?.hasPrefix("names no file") == true)
        #expect(Self.problem(link: "Sources/TesseraLayout/TesseraLayout.docc/SpecFormat.md#Spec", in: "README.md") == nil)
        #expect(Self.problem(link: "https://example.com/x", in: "README.md") == nil)
    }

    @Test("no tracked text file cites the contracts kept outside the repository")
    func noOutsideContracts() throws {
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        git.arguments = ["git", "-C", Self.root, "ls-files", "-z"]
        let output = Pipe()
        git.standardOutput = output
        try git.run()
        let listing = output.fileHandleForReading.readDataToEndOfFile()
        git.waitUntilExit()
        try #require(git.terminationStatus == 0, "git ls-files failed")
        let files = listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(files.contains("README.md"))
        // Spelled in pieces, so that this file does not cite them itself.
        let cited = ["shared" + "/", "spec-format" + ".md", "http-api" + ".md", "research-notes" + ".md"]
        for file in files {
            guard let data = FileManager.default.contents(atPath: Self.root + "/" + file), !data.contains(0),
                  let text = String(data: data, encoding: .utf8) else { continue }
            for (number, line) in text.components(separatedBy: "\n").enumerated() {
                for name in cited where line.range(of: name, options: .caseInsensitive) != nil {
                    Issue.record("\(file):\(number + 1) cites \(name)")
                }
            }
        }
    }
}
