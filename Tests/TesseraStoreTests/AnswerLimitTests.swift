import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// `maximumElements` of `LayoutStore.query`: an answer never holds more, a
/// long rect over more is refused band by band, before all of it is read.
@Suite("store: the most elements one answer holds")
struct AnswerLimitTests {
    /// 10,000 rows of one 390 × 30 item: 300,000 points long at 390.
    static let column = #"{"format": 1, "axis": "vertical", "sections": [{"layout": {"kind": "flow", "itemSize": [390, 30]}, "items": {"count": 10000, "cycle": [{}]}}]}"#
    /// The same, scrolling horizontally: 30 × 390 items.
    static let row = #"{"format": 1, "axis": "horizontal", "sections": [{"layout": {"kind": "flow", "itemSize": [30, 390]}, "items": {"count": 10000, "cycle": [{}]}}]}"#

    /// The answer of a query that must find its layout.
    static func found(_ store: LayoutStore, _ query: LayoutQuery, name: String, limit: Int, direction: LayoutDirection = .leftToRight) async throws -> LayoutAnswer {
        let result = try await store.query(query, name: name, crossExtent: 390, direction: direction, maximumElements: limit)
        guard case .found(let answer, _) = result else { throw StoreError(.notFound, "the layout of \(name) was not found") }
        return answer
    }

    static func refusal(_ store: LayoutStore, _ query: LayoutQuery, name: String, limit: Int, direction: LayoutDirection = .leftToRight) async -> AnswerTooLarge? {
        do {
            _ = try await store.query(query, name: name, crossExtent: 390, direction: direction, maximumElements: limit)
            return nil
        } catch let error as StoreError {
            #expect(error.code == .tooLarge && error.spec == name && error.crossExtent == 390)
            let cause = error.cause as? AnswerTooLarge
            #expect(cause.map { error.message == $0.sentence(limitOf: "the") } ?? false, "\(error.message)")
            return cause
        } catch {
            Issue.record("another error: \(error)")
            return nil
        }
    }

    @Test("within the limit: the answer as without one; past it: tooLarge, counted exactly for short rects, at least for long ones", arguments: TestBackend.all)
    func limits(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        _ = try await store.save(try Spec(jsonText: Self.column), as: "column", crossExtents: [390])
        // 2,900 rows of 30 points: long (over 20,000 points), read in bands, and within 3,000.
        let long = Rect(x: 0, y: 0, width: 390, height: 87_000)
        let within = try await Self.found(store, .rect(long), name: "column", limit: 3000)
        let expected = try LayoutEngine().layout(Spec(jsonText: Self.column), crossExtent: 390).elements(in: long)
        #expect(within.elements == expected && expected.count == 2900)
        // 3,001 rows: one over, counted band by band.
        let over = await Self.refusal(store, .rect(Rect(x: 0, y: 0, width: 390, height: 90_030)), name: "column", limit: 3000)
        #expect(over == AnswerTooLarge(elementCount: 3001, isExact: false, limit: 3000, partLength: 90_000))
        // Counting stops past the limit: bands of 45,000 points (1,500 rows), the second ends past 3,000.
        let whole = await Self.refusal(store, .rect(Rect(x: 0, y: 0, width: 1e308, height: 1e308)), name: "column", limit: 3000)
        #expect(whole?.elementCount == 4500 && whole?.isExact == false)
        // A short viewport over more than the limit: counted once read, exactly.
        let short = await Self.refusal(store, .viewport(Rect(x: 0, y: 0, width: 390, height: 900)), name: "column", limit: 20)
        #expect(short == AnswerTooLarge(elementCount: 30, isExact: true, limit: 20, partLength: 600))
        // Items are one element.
        let item = try await Self.found(store, .item(section: 0, item: 5), name: "column", limit: 1)
        #expect(item.elements.count == 1)
    }

    @Test("right to left counts the mirrored rect, along x for a horizontal spec", arguments: TestBackend.all)
    func rightToLeft(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        _ = try await store.save(try Spec(jsonText: Self.row), as: "row", crossExtents: [390])
        // Content 300,000 wide. The last 2,900 columns, asked right to left, are x 0…87,000.
        let rect = Rect(x: 0, y: 0, width: 87_000, height: 390)
        let within = try await Self.found(store, .rect(rect), name: "row", limit: 2900, direction: .rightToLeft)
        let result = try LayoutEngine().layout(Spec(jsonText: Self.row), crossExtent: 390)
        #expect(within.elements == result.elements(in: rect, direction: .rightToLeft) && within.elements.count == 2900)
        #expect(within.elements.allSatisfy { $0.item ?? 0 >= 7100 })
        let over = await Self.refusal(store, .rect(rect), name: "row", limit: 2899, direction: .rightToLeft)
        #expect(over?.elementCount == 2900 && over?.isExact == false)
    }
}
