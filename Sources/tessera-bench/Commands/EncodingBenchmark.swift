import ArgumentParser
import Foundation
import Locking
import TesseraHummingbird
import TesseraLayout
import TesseraServerSupport
import TesseraStore

/// `tessera-bench encoding`: how long writing a visible answer into
/// a response buffer takes, in process, beside building the same text from
/// each element's `jsonText`.
struct EncodingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encoding",
        abstract: "Time encoding visible answers of a stored layout into response buffers (median and p99)."
    )

    @OptionGroup var stored: StoredLayoutOptions

    @Option(help: "About how many elements each answer has.")
    var elements = 20

    @Option(help: "How many answers to encode, each timed.")
    var runs = 50_000

    func run() async throws {
        let store = try await ServerOptions.openStore(stored.db)
        let answers = try await sampleAnswers(store)
        var buffered = Samples()
        var joined = Samples()
        var checksum = 0
        for run in 0..<runs {
            let answer = answers[run % answers.count]
            let started = Clock.monotonic()
            checksum &+= JSONResponses.body(of: answer).readableBytes
            let middle = Clock.monotonic()
            checksum &+= answer.elements.map(\.jsonText).joined(separator: ",\n  ").utf8.count
            buffered.add((middle - started) * 1e6)
            joined.add((Clock.monotonic() - middle) * 1e6)
        }
        let count = answers.map(\.elements.count).reduce(0, +) / answers.count
        print("encoding answers of \(count) elements on average, \(runs) runs (checksum \(checksum % 997)):")
        print(String(format: "  into the response buffer: median %.2f µs, p99 %.2f µs", buffered.median, buffered.percentile(0.99)))
        print(String(format: "  jsonText per element, joined: median %.2f µs, p99 %.2f µs", joined.median, joined.percentile(0.99)))
    }

    /// 64 viewports at random offsets, each as tall as gives about
    /// `elements` elements.
    private func sampleAnswers(_ store: LayoutStore) async throws -> [LayoutAnswer] {
        let layout = try await store.layout(name: stored.name, crossExtent: stored.extent).layout
        let length = layout.contentLength
        let perPoint = Double(layout.elementCount) / max(length, 1)
        let height = Double(elements) / max(perPoint, 1e-9)
        var generator = SystemRandomNumberGenerator()
        var answers: [LayoutAnswer] = []
        for _ in 0..<100_000 where answers.count < 64 {
            let y = Double.random(in: 0...max(0, length - height), using: &generator)
            let rect = layout.axis == .vertical
                ? Rect(x: 0, y: y, width: stored.extent, height: height) : Rect(x: y, y: 0, width: height, height: stored.extent)
            let answer = try await store.answer(.viewport(rect), name: stored.name, crossExtent: stored.extent)
            if abs(answer.elements.count - elements) <= max(2, elements / 10) { answers.append(answer) }
        }
        guard !answers.isEmpty else { throw ValidationError("no viewport of \(stored.name.quotedForMessage) has about \(elements) elements") }
        return answers
    }
}
