// The example of the article "Testing with a store in memory" (TesseraStore.docc), as it is there.
import Testing
import TesseraLayout
import TesseraStore
import TesseraStoreTesting

@Test func savedFeedAnswersAsTheEngine() async throws {
    let spec = try Spec(jsonText: """
        {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3, "itemSpacing": 2, "lineSpacing": 2},
          "items": {"count": 300, "cycle": [{"aspectRatio": 1.5}, {}]}}]}
        """)
    let store = LayoutStore.inMemory()
    defer { store.close() }
    try await store.save(spec, as: "feed", crossExtents: [390])

    let viewport = Rect(x: 0, y: 1_000, width: 390, height: 844)
    let engine = try LayoutEngine().layout(spec, crossExtent: 390)
    #expect(try await store.visibleElements(name: "feed", crossExtent: 390, viewport: viewport)
        == engine.visibleElements(viewport: viewport))

    // A second store on the same rows sees the first one's commits.
    let other = try LayoutStore.inMemory(sharingRowsWith: store)
    defer { other.close() }
    try await store.invalidate(name: "feed")
    #expect(try await other.layouts().allSatisfy { $0.state == .stale })
}
