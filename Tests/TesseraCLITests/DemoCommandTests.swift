import Foundation
import FoundationXML
import TesseraStore
import Testing
import TesseraLayout
import TesseraSQLite

@Suite("tessera demo, end to end (a smaller feed)")
struct DemoCommandTests {
    @Test("writes the store and the picture in the current folder, replacing an old demo store, and lists its queries")
    func runsInCurrentDirectory() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A previous demo file, even a broken one, is replaced.
        try "not a database".write(to: directory.appendingPathComponent("tessera-demo.sqlite"), atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["demo", "--items", "5000"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        try await check(directory: directory, stdout: output.stdout, dbArgument: "tessera-demo.sqlite")
    }

    @Test("--out-dir puts the files there and the suggested commands name them")
    func outDir() async throws {
        let directory = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["demo", "--items", "3000", "--out-dir", directory.path])
        #expect(output.status == 0, "\(output.stderr)")
        try await check(directory: directory, stdout: output.stdout, dbArgument: directory.path + "/tessera-demo.sqlite")

        let notAFolder = try CLIRunner.run(["demo", "--items", "3000", "--out-dir", directory.appendingPathComponent("none").path])
        #expect(notAFolder.status != 0)
        #expect(notAFolder.stderr.contains("is not a directory"), "\(notAFolder.stderr)")
    }

    private func check(directory: URL, stdout: String, dbArgument: String) async throws {
        let database = directory.appendingPathComponent("tessera-demo.sqlite").path
        let store = try LayoutStore(path: database)
        let layouts = try await store.layouts()
        #expect(layouts.map(\.crossExtent).sorted() == [390, 430, 820])
        #expect(layouts.allSatisfy { $0.state == .fresh && $0.specName == DemoSpecName.name })
        // Every layout kind is used.
        let spec = try #require(try await store.spec(named: DemoSpecName.name))
        #expect(Set(spec.sections.map(\.layout.kind)) == ["flow", "grid", "scaledGrid", "mozaik", "pattern", "staggered", "mosaic"])
        #expect(spec.sections.count == 50)

        // Nine viewport queries (three places at three widths), each with elements.
        let rows = stdout.split(separator: "\n").filter { $0.hasPrefix("| 390 ") || $0.hasPrefix("| 430 ") || $0.hasPrefix("| 820 ") }
        #expect(rows.count == 9, "\(stdout)")
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(["top", "middle", "end"].contains(cells[1]))
            #expect((Int(cells[3]) ?? 0) > 0, "\(row)")
            #expect(Double(cells[6]) != nil, "\(row)")
        }
        #expect(rows.first?.contains("0 flow") == true)

        let picture = try XMLDocument(contentsOf: directory.appendingPathComponent("tessera-demo.svg"))
        #expect(try picture.nodes(forXPath: "//*[local-name()='rect'][starts-with(@class, 'element')]").count > 20)
        #expect(try picture.nodes(forXPath: "//*[local-name()='rect'][@class='query']").count == 1)

        // The suggested commands name the demo store, and they work.
        let suggested = stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("tessera ") }
        #expect(suggested.count >= 4)
        for line in suggested {
            #expect((line + " ").contains("--db \(dbArgument) "), "\(line)")
            var arguments = line.split(separator: "#")[0].split(separator: " ").map(String.init).dropFirst()
            if let out = arguments.firstIndex(of: "--out") {
                arguments[out + 1] = directory.appendingPathComponent(arguments[out + 1]).path
            }
            let result = try CLIRunner.run(Array(arguments), in: directory)
            #expect(result.status == 0, "\(line): \(result.stderr)")
        }
    }
}

/// The demo's spec name, as the command prints it.
enum DemoSpecName {
    static let name = "demo-feed"
}
