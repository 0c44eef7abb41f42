import Testing
import TesseraInMemory
import TesseraStoreTesting
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore

/// An update that goes on from a stored section reads the group it writes
/// into before the engine runs (`ResumedGroup`): damage there ends the
/// update with `.damaged` and leaves the store as it was.
@Suite("store: updates that go on from damaged groups")
struct ResumeDamageTests {
    /// 600 grid cells in three rows of groups (0, 250, 500); an append goes
    /// on after item 600 and rewrites the group of items 500… whole.
    static let grid = #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 600, "cycle": [{}]}}]}"#

    @Test("an append into a group whose frames were cut fails with .damaged and changes nothing", arguments: TestBackend.all)
    func cutFrames(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(try Spec(jsonText: Self.grid), as: "grid", crossExtents: [300])
        try await temporary.change(
            sql: "UPDATE cell_groups SET frames = substr(frames, 1, 64) WHERE id = (SELECT group_id FROM cell_group_directory WHERE slot = 0 AND first_item = 500)",
            postgres: "UPDATE cell_groups SET frames = substring(frames from 1 for 64) WHERE slot = 0 AND first_item = 500"
        ) { tables in
            tables.alterGroups { if $0.firstItem == 500 { $0.frames = Array(($0.frames ?? []).prefix(64)) } }
        }
        let error = await #expect(throws: StoreError.self) {
            try await store.append(name: "grid", section: 0, items: Array(repeating: Item(), count: 30))
        }
        #expect(error?.code == .damaged)
        #expect(error?.message.contains("the cell group of items 500… of section 0 does not match its checksum") == true, "\(String(describing: error))")
        let layout = try await store.layout(name: "grid", crossExtent: 300).layout
        #expect(layout.cellCount == 600)
    }

    @Test("an append into a group whose bytes match their checksum but are no frames fails with .damaged", arguments: [TestBackend.memory])
    func unreadableFrames(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(try Spec(jsonText: Self.grid), as: "grid", crossExtents: [300])
        // Only the in-memory tables let a test write a checksum that matches cut bytes.
        try await temporary.change(sql: "") { tables in
            tables.alterGroups { row in
                guard row.firstItem == 500 else { return }
                row.frames = Array((row.frames ?? []).prefix(64))
                row.resum()
            }
        }
        let error = await #expect(throws: StoreError.self) {
            try await store.append(name: "grid", section: 0, items: Array(repeating: Item(), count: 30))
        }
        #expect(error?.code == .damaged)
        #expect(error?.message.contains("the cell group of items 500… of section 0 holds bytes that are not frames") == true, "\(String(describing: error))")
    }
}
