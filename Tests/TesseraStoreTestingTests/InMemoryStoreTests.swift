import Foundation
import Testing
import TesseraLayout
import TesseraStore
import TesseraStoreTesting
import TesseraTestSupport

/// The product as a user's tests use it: only public API, no `@testable`.
@Suite("TesseraStoreTesting: a store in memory, as users' tests open it")
struct InMemoryStoreTests {
    /// A grid feed of `count` items under a pinned header, then a flow.
    static func feed(items count: Int) throws -> Spec {
        try Spec(jsonText: """
        {"format": 1, "sections": [
          {"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
           "header": {"size": 44, "pinned": true}, "items": {"count": \(count), "cycle": [{"aspectRatio": 1.5}, {}]}},
          {"layout": {"kind": "flow", "itemSize": [100, 40]}, "items": {"count": 40, "cycle": [{}]}}]}
        """)
    }

    /// Every viewport of the layout, 700 points apart: what `store` answers
    /// equals the engine's answer in memory, frame for frame.
    static func expectEngineAnswers(_ store: LayoutStore, _ spec: Spec, _ comment: Comment) async throws {
        let engine = try LayoutEngine().layout(spec, crossExtent: 390)
        #expect(engine.elements.count > 100, comment)
        for y in stride(from: 0.0, to: engine.contentSize.height, by: 700) {
            let viewport = Rect(x: 0, y: y, width: 390, height: 844)
            let stored = try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport, computeIfMissing: false)
            #expect(stored == engine.visibleElements(viewport: viewport), "\(comment) at \(y)")
        }
    }

    @Test("save, query, update; a second handle sees each commit; close one, the other goes on")
    func lifecycle() async throws {
        let store = LayoutStore.inMemory()
        let first = try Self.feed(items: 600)
        try await store.save(first, as: "feed", crossExtents: [390])
        try await Self.expectEngineAnswers(store, first, "saved")

        let other = try LayoutStore.inMemory(sharingRowsWith: store)
        try await Self.expectEngineAnswers(other, first, "second handle")
        // An update through one handle is what the other answers next.
        let second = try Self.feed(items: 900)
        let report = try await store.update(name: "feed", with: second)
        #expect(report.layouts.count == 1)
        try await Self.expectEngineAnswers(other, second, "updated, seen by the second handle")
        try await other.save(try Self.feed(items: 30), as: "small")
        #expect(try await store.specs().map(\.name) == ["feed", "small"])
        #expect(try await store.check().isHealthy)

        store.close()
        let closed = await #expect(throws: StoreError.self) { try await store.specs() }
        #expect(closed?.code == .closed)
        try await Self.expectEngineAnswers(other, second, "after the first handle closed")
        // A new store has rows of its own.
        #expect(try await LayoutStore.inMemory().specs().isEmpty)
    }
}

/// The article's example is the test `savedFeedAnswersAsTheEngine`, line for line.
@Suite("TesseraStoreTesting: the article's example")
struct ArticleExampleSourceTests {
    @Test("the article's example test is ArticleExampleTests.swift, which runs")
    func exampleIsTheTest() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let article = tests.appendingPathComponent("../../Sources/TesseraStore/TesseraStore.docc/TestingWithAStoreInMemory.md")
        let blocks = fencedBlocks("swift", in: try String(contentsOf: article, encoding: .utf8))
        #expect(blocks.count == 1)
        let source = try String(contentsOf: tests.appendingPathComponent("ArticleExampleTests.swift"), encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.dropFirst().prefix(blocks.first?.count ?? 0)) == blocks.first)
    }
}
