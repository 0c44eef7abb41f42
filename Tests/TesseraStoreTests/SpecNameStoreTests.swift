import Foundation
import Testing
import TesseraLayout
@testable import TesseraStore
import TesseraPrecompute

/// Every way a name enters a store follows the rule for spec names: a name
/// to save a spec as, a spec built in Swift, a batch's specs.
@Suite("store: the rule for spec names")
struct SpecNameStoreTests {
    static var spec: Spec {
        get throws { try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3, "cycle": [{}]}}]}"#) }
    }

    static let badNames: [(name: String, reason: String)] = [
        ("feed\nnext", "a spec name must not contain control characters or line breaks, got U+000A at character 4"),
        ("\u{1B}[31mred", "a spec name must not contain control characters or line breaks, got U+001B at character 0"),
        (String(repeating: "n", count: 300), "a spec name must be at most 256 bytes of UTF-8, got 300 bytes"),
    ]

    @Test("a name to save as that breaks the rule is an invalid argument naming the rule; nothing is stored")
    func saveAs() async throws {
        let temporary = try await TemporaryStore()
        for (name, reason) in Self.badNames {
            do {
                _ = try await temporary.store.save(try Self.spec, as: name, crossExtents: [390])
                Issue.record("\(name.debugDescription) was stored")
            } catch let error as StoreError {
                #expect(error.code == .invalidArgument)
                #expect(error.message == "\(reason): \(name.quotedForMessage)")
                #expect(!error.message.contains("\n"))
            }
        }
        #expect(try await temporary.store.specs().isEmpty)
        // The longest name, and one of any script, are names.
        let longest = String(repeating: "é", count: 128)
        _ = try await temporary.store.save(try Self.spec, as: longest, crossExtents: [390])
        _ = try await temporary.store.save(try Self.spec, as: "フィード 2", crossExtents: [390])
        #expect(try await temporary.store.specs().map(\.name).sorted() == [longest, "フィード 2"].sorted())
        #expect(try await temporary.store.spec(named: longest)?.name == longest)
    }

    @Test("a spec built in Swift with a bad name is refused, in a save and in a batch")
    func builtInSwift() async throws {
        let temporary = try await TemporaryStore()
        var named = try Self.spec
        named.name = "tab\there"
        await #expect(throws: StoreError.self) { try await temporary.store.save(named, crossExtents: [390]) }
        var good = try Self.spec
        good.name = "good"
        let report = try await temporary.store.saveBatch([good, named], crossExtents: [390], onFailure: .skip)
        #expect(report.saved == 1)
        #expect(report.failures.map(\.index) == [1])
        #expect(report.failures.first?.error.code == .invalidArgument)
        #expect(report.failures.first?.error.message.hasPrefix("a spec name must not contain control characters or line breaks, got U+0009") == true)
        #expect(try await temporary.store.specs().map(\.name) == ["good"])
    }

    @Test("a spec stored before the rule, under a name it now breaks, is still read back")
    func storedBeforeTheRule() async throws {
        let temporary = try await TemporaryStore()
        _ = try await temporary.store.save(try Self.spec, as: "old", crossExtents: [390])
        try await temporary.execute("UPDATE specs SET name = 'old' || char(10) || 'name', body = replace(body, '\"old\"', '\"old\\nname\"')")
        let reopened = try await temporary.reopen()
        #expect(try await reopened.spec(named: "old\nname")?.name == "old\nname")
        // And changed in place: an append reads its header as the load does.
        let report = try await reopened.append(name: "old\nname", section: 0, items: [Item()])
        #expect(report.layouts.map(\.crossExtent) == [390])
        var appended = try Self.spec
        appended.sections[0].items = appended.sections[0].items.appending([Item()])
        let all = Rect(x: 0, y: 0, width: 390, height: 1e6)
        let memory = try LayoutEngine().layout(appended, crossExtent: 390)
        #expect(try await reopened.elements(name: "old\nname", crossExtent: 390, in: all) == LayoutStoreRoundTripTests.bruteForce(memory.elements, all))
    }
}
