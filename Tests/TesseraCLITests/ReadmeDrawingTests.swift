import Foundation
import Testing

/// The README's drawings of the examples of breakpoints, right to left and
/// carousels are what `tessera render` draws from those examples today.
@Suite("README drawings")
struct ReadmeDrawingTests {
    static let drawings: [(file: String, arguments: [String])] = [
        ("breakpoints.svg", ["Examples/breakpoints.json", "--width", "390"]),
        ("breakpoints-1100.svg", ["Examples/breakpoints.json", "--width", "1100"]),
        ("rtl-feed.svg", ["Examples/rtl-feed.json", "--width", "390"]),
        ("rtl-feed-rtl.svg", ["Examples/rtl-feed.json", "--width", "390", "--rtl"]),
        ("carousel-feed.svg", ["Examples/carousel-feed.json", "--width", "390"]),
        ("carousel-feed-rtl.svg", ["Examples/carousel-feed.json", "--width", "390", "--rtl", "--offset", "1=200", "--offset", "4=150"]),
    ]

    @Test("each drawing is the render of its example", arguments: drawings.indices)
    func drawing(index: Int) throws {
        let (file, arguments) = Self.drawings[index]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-drawings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent(file).path
        let output = try CLIRunner.run(["render"] + arguments + ["--out", out], in: CLIRunner.repository)
        #expect(output.status == 0, "\(output.stderr)")
        let drawn = try Data(contentsOf: URL(fileURLWithPath: out))
        let shown = try Data(contentsOf: CLIRunner.repository.appendingPathComponent("docs/\(file)"))
        #expect(drawn == shown, "docs/\(file) is not what `tessera render \(arguments.joined(separator: " "))` draws now")
        #expect(ReadmeTests.readme.contains("docs/\(file)"), "the README shows docs/\(file)")
    }
}
