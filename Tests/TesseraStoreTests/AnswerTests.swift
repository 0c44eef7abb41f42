import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore

@Suite("store: answers with their layout and revision tag")
struct AnswerTests {
    static let spec = #"""
    {"format": 1, "sections": [
      {"header": {"size": 40, "pinned": true}, "layout": {"kind": "grid", "fraction": 3}, "items": {"count": 30, "cycle": [{}]}},
      {"layout": {"kind": "flow", "itemSize": [100, 50]}, "items": {"count": 12, "cycle": [{}]}}
    ]}
    """#

    @Test("an answer holds the in-memory result's elements and the stored layout, for every query", arguments: TestBackend.all)
    func elements(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let spec = try Spec(jsonText: Self.spec)
        try await temporary.store.save(spec, as: "feed", crossExtents: [390])
        let memory = try LayoutEngine().layout(spec, crossExtent: 390)
        let viewport = Rect(x: 0, y: 300, width: 390, height: 400)

        let visible = try await temporary.store.answer(.viewport(viewport), name: "feed", crossExtent: 390)
        #expect(visible.elements == memory.visibleElements(viewport: viewport))
        #expect(visible.layout.specName == "feed" && visible.layout.crossExtent == 390)
        #expect(visible.layout.contentSize == memory.contentSize)

        let store = temporary.store
        let rect = try await store.answer(.rect(viewport), name: "feed", crossExtent: 390)
        #expect(rect.elements == memory.elements(in: viewport))
        #expect(rect.revisionTag == visible.revisionTag)

        let item = try await temporary.store.answer(.item(section: 1, item: 4), name: "feed", crossExtent: 390)
        #expect(item.elements == memory.elements.filter { $0.kind == .cell && $0.section == 1 && $0.item == 4 })
    }

    @Test("a missing section or item is notFound naming it; a missing layout not computed names its extent", arguments: TestBackend.all)
    func notFound(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(try Spec(jsonText: Self.spec), as: "feed", crossExtents: [390])
        let section = await #expect(throws: StoreError.self) {
            try await temporary.store.answer(.item(section: 2, item: 0), name: "feed", crossExtent: 390)
        }
        #expect(section?.code == .notFound && section?.section == 2 && section?.item == nil)
        #expect(section?.message == #"spec "feed" has no section 2 (it has 2)"#)
        let item = await #expect(throws: StoreError.self) {
            try await temporary.store.answer(.item(section: 1, item: 12), name: "feed", crossExtent: 390)
        }
        #expect(item?.code == .notFound && item?.section == 1 && item?.item == 12)
        let layout = await #expect(throws: StoreError.self) {
            try await temporary.store.answer(.rect(Rect(x: 0, y: 0, width: 1, height: 1)), name: "feed", crossExtent: 430, computeIfMissing: false)
        }
        #expect(layout?.code == .notFound && layout?.crossExtent == 430 && layout?.section == nil)
        let spec = await #expect(throws: StoreError.self) {
            try await temporary.store.answer(.rect(Rect(x: 0, y: 0, width: 1, height: 1)), name: "nope", crossExtent: 430)
        }
        #expect(spec?.code == .notFound && spec?.crossExtent == nil)
    }

    @Test("the revision tag stays while the frames do, and changes with an append, an update or a recomputation", arguments: TestBackend.all)
    func revisionTag(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let query = LayoutQuery.rect(Rect(x: 0, y: 0, width: 390, height: 100))
        try await store.save(try Spec(jsonText: Self.spec), as: "feed", crossExtents: [390, 430])
        let first = try await store.answer(query, name: "feed", crossExtent: 390).revisionTag
        #expect(try await store.answer(query, name: "feed", crossExtent: 390).revisionTag == first)
        // Its form: the layout's id, its revision, and its content length's bits in base 36.
        let parts = first.split(separator: ".")
        let length = try await store.layout(name: "feed", crossExtent: 390).layout.contentLength
        #expect(parts.count == 3 && Int64(parts[0]) != nil && Int64(parts[1]) != nil, "\(first)")
        #expect(parts.count == 3 && UInt64(parts[2], radix: 36) == length.bitPattern && parts[2] == parts[2].lowercased()[...], "\(first)")
        #expect(try await store.answer(query, name: "feed", crossExtent: 430).revisionTag != first)

        try await store.append(name: "feed", section: 1, items: [Item()])
        let appended = try await store.answer(query, name: "feed", crossExtent: 390).revisionTag
        #expect(appended != first)

        try await store.invalidate(name: "feed", crossExtent: 390)
        let recomputed = try await store.answer(query, name: "feed", crossExtent: 390).revisionTag
        #expect(recomputed != appended)

        // Saving the same content again changes nothing, so neither does the tag.
        let same = try #require(try await store.spec(named: "feed"))
        try await store.save(same, as: "feed")
        #expect(try await store.answer(query, name: "feed", crossExtent: 390).revisionTag == recomputed)
    }
}
