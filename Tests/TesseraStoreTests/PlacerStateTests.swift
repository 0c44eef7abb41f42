import Foundation
import Testing
import TesseraInMemory
import TesseraStoreTesting
import TesseraLayout
@testable import TesseraStore

@Suite("store: versioned placer states")
struct PlacerStateTests {
    static let json = #"{"format": 1, "name": "photos", "sections": [{"layout": {"kind": "staggered", "columns": 3, "itemSpacing": 4, "lineSpacing": 4}, "items": [{"aspectRatio": 0.75}, {"aspectRatio": 1.5}, {"aspectRatio": 1}, {"aspectRatio": 0.6}, {"aspectRatio": 1.33}]}]}"#

    /// The state this section had as stored before states had versions
    /// (plain JSON), as the previous release wrote it: a committed fixture.
    static let legacyState = #"{"bottoms":[169.77777777777777,301.1111111111111,227.07268170426062],"columnWidth":127.33333333333333,"lineSpacing":4,"itemSpacing":4,"axis":"vertical","filled":[true,true,true],"placement":"shortest"}"#

    static let appended = [Item(aspectRatio: 1), Item(aspectRatio: 0.5)]

    /// Frames of the spec with the appended items, laid out whole.
    static func expected() throws -> [LayoutElement] {
        var spec = try Spec(jsonText: json)
        spec.sections[0].items = spec.sections[0].items.appending(appended)
        return try LayoutEngine().layout(spec, crossExtent: 390).elements(in: Rect(x: 0, y: 0, width: 390, height: 1e6))
    }

    /// Saves the spec, replaces its stored state with `state`, then appends.
    static func append(after state: String, backend: TestBackend) async throws -> (TemporaryStore, UpdateReport) {
        let temporary = try await TemporaryStore(backend)
        try await temporary.store.save(Spec(jsonText: json), crossExtents: [390])
        try await temporary.change(sql: "UPDATE layout_sections SET placer_state = \(backend.blob(state))") { tables in
            tables.alterSections { $0.placerState = Array(state.utf8); $0.resum() }
        }
        return (temporary, try await temporary.store.append(name: "photos", section: 0, items: appended))
    }

    @Test("states are stored with their version, and a state from before versions (the fixture) still resumes", arguments: TestBackend.all)
    func legacyStateResumes(backend: TestBackend) async throws {
        let (temporary, report) = try await Self.append(after: Self.legacyState, backend: backend)
        let store = temporary.store
        #expect(report.layouts.map(\.resumed) == [1])
        #expect(report.layouts.map(\.unreadableStates) == [0])
        #expect(try await store.elements(name: "photos", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 1e6)) == Self.expected())
    }

    @Test("a state of another version, or one that does not decode, is counted and its section laid out again", arguments: TestBackend.all, [
        "v999:" + legacyState, "v1:{}", "v1:" + legacyState.replacingOccurrences(of: "bottoms", with: "tops"), "vX:{}",
    ])
    func unreadableStates(backend: TestBackend, state: String) async throws {
        let (temporary, report) = try await Self.append(after: state, backend: backend)
        let store = temporary.store
        #expect(report.layouts.map(\.resumed) == [0])
        #expect(report.layouts.map(\.recomputed) == [1])
        #expect(report.layouts.map(\.unreadableStates) == [1])
        #expect(try await store.elements(name: "photos", crossExtent: 390, in: Rect(x: 0, y: 0, width: 390, height: 1e6)) == Self.expected())
        // The section was laid out again: its new state is this version's.
        let again = try await store.append(name: "photos", section: 0, items: [Item()])
        #expect(again.layouts.map(\.resumed) == [1])
    }
}
