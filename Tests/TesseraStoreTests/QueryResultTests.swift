import Synchronization
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// `LayoutStore.query(_:name:crossExtent:compute:)`: one call whatever the
/// layout's state, missing layouts told apart by a typed result.
@Suite("store: one query call, a typed result")
struct QueryResultTests {
    static let viewport = Rect(x: 0, y: 0, width: 300, height: 400)

    static func expectedElements(extent: Double) throws -> [LayoutElement] {
        try LayoutEngine().layout(AsyncStoreTests.grid(), crossExtent: extent).visibleElements(viewport: viewport)
    }

    @Test("fresh: found, not computed; missing or stale with .never: why, and the spec's layouts; nothing computed", arguments: TestBackend.all)
    func missingTold(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        _ = try await store.save(AsyncStoreTests.grid(), as: "feed", crossExtents: [300])
        guard case .found(let answer, let computed) = try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 300, compute: .never) else {
            Issue.record("a fresh layout was not found")
            return
        }
        #expect(!computed)
        #expect(answer.elements == (try Self.expectedElements(extent: 300)))
        #expect(answer.layout.crossExtent == 300)

        guard case .missing(let missing) = try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 320, compute: .never) else {
            Issue.record("a layout never computed was found")
            return
        }
        #expect(missing == MissingLayout(specName: "feed", crossExtent: 320, reason: .notComputed, storedLayouts: try await store.layouts(name: "feed")))
        #expect(missing.storedLayouts.map(\.crossExtent) == [300])

        _ = try await store.invalidate(name: "feed", crossExtent: 300)
        guard case .missing(let stale) = try await store.query(.item(section: 0, item: 3), name: "feed", crossExtent: 300, compute: .never) else {
            Issue.record("a stale layout was found")
            return
        }
        #expect(stale.reason == .stale)
        #expect(stale.storedLayouts.map(\.state) == [.stale])
        #expect(try await store.layouts(name: "feed").map(\.state) == [.stale], "nothing was computed")
    }

    @Test("an unknown spec, a bad extent and a missing item throw, whatever the policy", arguments: TestBackend.all)
    func errorsStayErrors(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        _ = try await store.save(AsyncStoreTests.grid(), as: "feed", crossExtents: [300])
        for policy in [ComputePolicy.never, .always] {
            let unknown = await #expect(throws: StoreError.self) { try await store.query(.viewport(Self.viewport), name: "nope", crossExtent: 300, compute: policy) }
            #expect(unknown?.code == .notFound && unknown?.spec == "nope")
            let extent = await #expect(throws: StoreError.self) { try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: -1, compute: policy) }
            #expect(extent?.code == .invalidArgument)
            let item = await #expect(throws: StoreError.self) { try await store.query(.item(section: 0, item: 30), name: "feed", crossExtent: 300, compute: policy) }
            #expect(item?.code == .notFound && item?.item == 30)
        }
    }

    @Test(".always computes once and says so; .admittedBy asks first, refuses by throwing, and releases after computing", arguments: TestBackend.all)
    func computes(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        _ = try await store.save(AsyncStoreTests.grid(), as: "feed", crossExtents: [300])

        guard case .found(let answer, true) = try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 310) else {
            Issue.record("a missing layout was not computed by .always")
            return
        }
        #expect(answer.elements == (try Self.expectedElements(extent: 310)))
        guard case .found(_, false) = try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 310) else {
            Issue.record("a layout computed before was computed again")
            return
        }

        struct Refused: Error {}
        let asked = Mutex<[MissingLayout]>([])
        await #expect(throws: Refused.self) {
            try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 320, compute: .admittedBy { missing in
                asked.withLock { $0.append(missing) }
                throw Refused()
            })
        }
        #expect(asked.withLock { $0.map(\.crossExtent) } == [320])
        #expect(try await store.layouts(name: "feed").map(\.crossExtent) == [300, 310], "a refused computation computes nothing")

        let released = Mutex(0)
        let admitted = try await store.query(.viewport(Self.viewport), name: "feed", crossExtent: 320, compute: .admittedBy { missing in
            #expect(missing.reason == .notComputed && missing.storedLayouts.map(\.crossExtent) == [300, 310])
            #expect(released.withLock { $0 } == 0)
            return { released.withLock { $0 += 1 } }
        })
        guard case .found(let computedAnswer, true) = admitted else {
            Issue.record("an admitted computation did not answer")
            return
        }
        #expect(computedAnswer.elements == (try Self.expectedElements(extent: 320)))
        #expect(released.withLock { $0 } == 1)
    }
}
