import Foundation
import Testing
import TesseraLayout
import TesseraTestSupport
@testable import TesseraStore
@testable import TesseraStoreFormat

/// Resizing items (measured sizes): the result equals a full recompute of
/// the changed spec, from the latest stored state at or before the first
/// changed item, and the stored spec reads back with the changes applied.
@Suite("store: resizing items equals a full recompute")
struct ResizeTests {
    static let everything = Rect(x: -1e7, y: -1e7, width: 4e7, height: 4e7)

    /// Every item of a source, in order.
    static func expand(_ source: ItemSource, section: Int = 0) throws -> [Item] {
        var items: [Item] = []
        try source.forEach(section: section) { item, _, _ in items.append(item) }
        return items
    }

    /// The contract's reading of a change, done by hand: the item's JSON
    /// object with those members set (null: removed), read again.
    static func bruteForce(_ item: Item, _ fields: [Item.Field: JSONValue]) throws -> Item {
        guard case .object(let object) = item.jsonValue else { return item }
        var members: [String: JSONValue] = [:]
        for (key, value) in zip(object.keys, object.values) { members[key] = value }
        for (field, value) in fields { members[field.rawValue] = value == .null ? nil : value }
        var rebuilt = JSONObject()
        for key in members.keys.sorted() { rebuilt[key] = members[key] }
        return try Item(json: .object(rebuilt), path: .root)
    }

    @Test("a taller item in a flow line: the line and the section after it move, exactly", arguments: TestBackend.all)
    func workedExample(backend: TestBackend) async throws {
        let spec = try Spec(jsonText: """
        {"format": 1, "sections": [
          {"layout": {"kind": "flow", "alignment": "start"}, "items": [{"size": [100, 10]}, {"size": [100, 10]}, {"size": [100, 10]}, {"size": [100, 10]}]},
          {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 2, "cycle": [{}]}}]}
        """)
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: [300])
        let report = try await store.resize(name: "feed", section: 0, changes: [ItemChange(item: 1, fields: [.size: .array([.number(100), .number(30)])])])
        #expect(report.layouts.map(\.recomputed) == [1])  // item 1 is before the first checkpoint: from the section's start
        #expect(report.layouts.map(\.shifted) == [1])
        let frames = try await store.elements(name: "feed", crossExtent: 300, in: Self.everything).map(\.frame)
        #expect(frames == [
            Rect(x: 0, y: 10, width: 100, height: 10), Rect(x: 100, y: 0, width: 100, height: 30), Rect(x: 200, y: 10, width: 100, height: 10),
            Rect(x: 0, y: 30, width: 100, height: 10),
            Rect(x: 0, y: 40, width: 150, height: 150), Rect(x: 150, y: 40, width: 150, height: 150),
        ])
        // null removes the field: the item takes the layout's itemSize (50×50) again.
        try await store.resize(name: "feed", section: 0, changes: [ItemChange(item: 3, fields: [.size: .null])])
        #expect(try await store.element(name: "feed", crossExtent: 300, section: 0, item: 3)?.frame == Rect(x: 0, y: 30, width: 50, height: 50))
        #expect(try await store.element(name: "feed", crossExtent: 300, section: 1, item: 0)?.frame == Rect(x: 0, y: 80, width: 150, height: 150))
        let stored = try #require(try await store.spec(named: "feed"))
        #expect(stored.sections[0].items == .list([Item(width: 100, height: 10), Item(width: 100, height: 30), Item(width: 100, height: 10), Item()]))
    }

    enum Form: CaseIterable { case list, cycle, file }

    @Test("random specs, long sections of every items form, random changes: frames equal a full recompute", arguments: TestBackend.all, Array(UInt64(1)...9))
    func randomResizes(backend: TestBackend, seed: UInt64) async throws {
        var generator = RandomSpecGenerator(seed: seed, kinds: allKinds)
        let (json, extent) = generator.spec(sections: 1...3, items: 1...30)
        var spec = try Spec(jsonText: json)
        var random = SeededRandom(seed: seed &* 7_919)
        let temporary = try await TemporaryStore(backend)
        // One section gets long, in one of the items forms, from its own kind of items.
        let section = random.int(0...(spec.sections.count - 1))
        var pool = try Self.expand(spec.sections[section].items, section: section)
        if pool.isEmpty { pool = [Item()] }
        let count = random.int(StoredStates.interval + 10...2 * StoredStates.interval + 900)
        let long = (0..<count).map { pool[$0 % pool.count] }
        let form = Form.allCases[Int(seed % 3)]
        switch form {
        case .list: spec.sections[section].items = .list(long)
        case .cycle: spec.sections[section].items = .cycle(count: count, pool)
        case .file:
            let path = temporary.file("items.ndjson")
            try long.map { JSONWriter.canonical($0.jsonValue) }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
            spec.sections[section].items = .file(path: path, resolvedPath: path)
        }
        let extents = [extent, extent + 97.5]
        let store = temporary.store
        try await store.save(spec, as: "feed", crossExtents: extents)
        var expected = long
        for step in 0..<3 {
            var changes: [ItemChange] = []
            let before = expected
            for _ in 0..<random.int(1...5) {
                let item = switch random.int(0...4) {
                case 0: 0
                case 1: count - 1
                case 2: random.int(max(0, count - 200)...(count - 1))
                default: random.int(0...(count - 1))
                }
                let source = pool[random.int(0...(pool.count - 1))]
                var fields: [Item.Field: JSONValue] = [:]
                if case .object(let object) = source.jsonValue {
                    for (key, value) in zip(object.keys, object.values) { if let field = Item.Field(rawValue: key) { fields[field] = value } }
                }
                if fields.isEmpty || random.chance(0.2) { fields[Item.Field.allCases[random.int(0...7)]] = .null }
                changes.append(ItemChange(item: item, fields: fields))
                expected[item] = try Self.bruteForce(expected[item], fields)
            }
            let first = changes.map(\.item).min() ?? 0
            let report = try await store.resize(name: "feed", section: section, changes: changes)
            let what = "seed \(seed) step \(step) \(form) \(count) items, first change \(first): \(report.layouts)"
            // Every kind of ours resumes: from a checkpoint when there is one at or before the first change.
            // A list whose items end as they were is the same content: nothing to lay out.
            if form == .list, expected == before {
                #expect(report.layouts.allSatisfy { $0.kept == spec.sections.count }, "\(what)")
            } else {
                let resumed = first >= StoredStates.interval
                #expect(report.layouts.allSatisfy { layout in
                    layout.resumed == (resumed ? 1 : 0) && layout.recomputed == (resumed ? 0 : 1) && layout.kept + layout.shifted == spec.sections.count - 1
                }, "\(what)")
            }

            let stored = try #require(try await store.spec(named: "feed"))
            #expect(try Self.expand(stored.sections[section].items, section: section) == expected, "\(what)")
            if form == .list { #expect(stored.sections[section].items == .list(expected), "\(what)") }
            var bruteForce = spec
            bruteForce.sections[section].items = .list(expected)
            for (index, other) in stored.sections.enumerated() where index != section {
                #expect(JSONWriter.canonical(other.jsonValue) == JSONWriter.canonical(spec.sections[index].jsonValue), "\(what)")
            }
            for width in extents {
                let memory = try LayoutEngine().layout(bruteForce, crossExtent: width)
                let layout = try #require(try await store.layouts(name: "feed").first { $0.crossExtent == width })
                #expect(layout.contentSize == memory.contentSize, "\(what) @\(width)")
                #expect(try await store.elements(name: "feed", crossExtent: width, in: Self.everything) == memory.elements, "\(what) @\(width)")
            }
            // The stored spec's content is that of a full save of it: saving it again changes nothing.
            let again = try await store.save(stored, as: "feed", crossExtents: extents)
            #expect(again.report.layouts.allSatisfy { $0.kept == stored.sections.count && !$0.fullRecompute }, "\(what): \(again.report)")
        }
        #expect(try await store.check().problems.isEmpty)
    }

    @Test("a 1M-item count/cycle keeps 100 changes as overrides, compactly; it reads back with them")
    func compactOverrides() async throws {
        let temporary = try await TemporaryStore(.memory)
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 2}, "items": {"count": 1000000, "cycle": [{"length": 10}, {"length": 20}]}}]}"#)
        try await temporary.store.save(spec, as: "big")
        let changes = (0..<100).map { ItemChange(item: 999_000 + $0 * 10, fields: [.length: .number(Double(30 + $0))]) }
        try await temporary.store.resize(name: "big", section: 0, changes: changes)
        let stored = try #require(try await temporary.store.spec(named: "big"))
        #expect(stored.canonicalText.utf8.count < 6_000)
        guard case .overridden(.cycle(1_000_000, _), let overrides) = stored.sections[0].items else {
            Issue.record("not kept as overrides: \(stored.sections[0].items)")
            return
        }
        #expect(overrides.indices == changes.map(\.item))
        #expect(overrides[999_010] == Item(length: 31))
        #expect(overrides[999_011] == nil)
        // A spec of that form reads back as written.
        #expect(try Spec(jsonText: stored.canonicalText).sections[0].items == stored.sections[0].items)
    }

    @Test("changes apply in order: the later one's fields over the earlier one's", arguments: TestBackend.all)
    func laterChangesWin(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "staggered", "columns": 1}, "items": [{"length": 10}, {"length": 10}]}]}"#)
        try await temporary.store.save(spec, as: "feed", crossExtents: [100])
        try await temporary.store.resize(name: "feed", section: 0, changes: [
            ItemChange(item: 1, fields: [.length: .number(40), .aspectRatio: .number(2)]), ItemChange(item: 1, fields: [.length: .number(25)]),
        ])
        #expect(try await temporary.store.spec(named: "feed")?.sections[0].items == .list([Item(length: 10), Item(aspectRatio: 2, length: 25)]))
        #expect(try await temporary.store.element(name: "feed", crossExtent: 100, section: 0, item: 1)?.frame == Rect(x: 0, y: 10, width: 100, height: 25))
    }

    @Test("unknown spec, section or item, a bad value, no field: refused, nothing changed", arguments: TestBackend.all)
    func refusals(backend: TestBackend) async throws {
        let temporary = try await TemporaryStore(backend)
        let store = temporary.store
        let spec = try Spec(jsonText: #"{"format": 1, "sections": [{"layout": {"kind": "flow"}, "items": []}, {"layout": {"kind": "grid", "fraction": 2}, "items": {"count": 30, "cycle": [{}]}}]}"#)
        try await store.save(spec, as: "feed", crossExtents: [300])
        let before = try await store.elements(name: "feed", crossExtent: 300, in: Self.everything)
        let good = ItemChange(item: 2, fields: [.aspectRatio: .number(2)])
        func refused(_ name: String, _ section: Int, _ changes: [ItemChange]) async -> StoreError? {
            do {
                try await store.resize(name: name, section: section, changes: changes)
                return nil
            } catch {
                return error as? StoreError
            }
        }
        #expect(await refused("nope", 0, [good])?.code == .notFound)
        #expect(await refused("feed", 2, [good])?.code == .notFound)
        let item = await refused("feed", 1, [good, ItemChange(item: 30, fields: [.length: .number(3)])])
        #expect(item?.code == .notFound && item?.item == 30)
        #expect(item?.message == "section 1 of spec \"feed\" has no item 30 (it has 30)")
        let value = await refused("feed", 1, [good, ItemChange(item: 7, fields: [.aspectRatio: .number(-1)])])
        #expect(value?.code == .invalidSpec && value?.path == "sections[1].items[7].aspectRatio", "\(String(describing: value))")
        #expect(await refused("feed", 1, [])?.code == .invalidArgument)
        #expect(await refused("feed", 1, [ItemChange(item: 3, fields: [:])])?.code == .invalidArgument)
        #expect(await refused("feed", 1, [ItemChange(item: -1, fields: [.length: .number(3)])])?.code == .invalidArgument)
        #expect(try await store.spec(named: "feed")?.canonicalText == spec.canonicalText)
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Self.everything) == before)
        // A field the kind does not read is stored, not checked.
        try await store.resize(name: "feed", section: 1, changes: [ItemChange(item: 4, fields: [.length: .number(-5)])])
        #expect(try await store.elements(name: "feed", crossExtent: 300, in: Self.everything) == before)
        guard case .overridden(_, let overrides) = try await store.spec(named: "feed")?.sections[1].items else {
            Issue.record("no overrides")
            return
        }
        #expect(overrides[4] == Item(length: -5))
    }
}
