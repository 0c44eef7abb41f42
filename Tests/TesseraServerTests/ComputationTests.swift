import Dispatch
import Foundation
import Synchronization
import Hummingbird
import HummingbirdTesting
import Testing
import TesseraHummingbird
@testable import TesseraLayout
import TesseraStore
import TesseraTestSupport

@Suite("server: computation off the request path, and readers during writes", .timeLimit(.minutes(2)))
struct ComputationTests {
    /// Waits for a computation at `gate` without holding a cooperative thread.
    static func arrival(at gate: Gate) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: gate.waitForArrival()) }
        }
    }

    @Test("requests for one missing layout wait for one computation while other requests are served")
    func sharedComputation() async throws {
        let fixture = try await ServerFixture(registry: GateLayout.registry)
        let gate = Gate.make()
        try await fixture.store.save(try GateLayout.spec(gate: gate), as: "gated")
        try await fixture.application().test(.router) { client in
            let uri = "/v1/feeds/gated/layouts/300/rect?rect=0,0,300,100"
            let waiting = (0..<4).map { _ in Task { try await client.execute(uri: uri, method: .get) } }
            #expect(await Self.arrival(at: gate))
            // The computation holds no route: health, the list and stored layouts answer meanwhile.
            #expect(try await client.execute(uri: "/v1/health", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/feeds", method: .get).status == .ok)
            let stored = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get)
            #expect(stored.status == .ok)
            #expect(try await fixture.store.layouts(name: "gated").isEmpty)
            gate.open()
            var bodies: Set<String> = []
            for task in waiting {
                let response = try await task.value
                #expect(response.status == .ok)
                bodies.insert(response.text)
            }
            #expect(bodies.count == 1)
        }
        #expect(fixture.metricsText.contains("tessera_layouts_computed_total 1\n"))
    }

    @Test("a client that goes away does not cancel the computation others wait for")
    func cancelledClient() async throws {
        let fixture = try await ServerFixture(registry: GateLayout.registry)
        let gate = Gate.make()
        try await fixture.store.save(try GateLayout.spec(gate: gate), as: "gated")
        try await fixture.application().test(.router) { client in
            let uri = "/v1/feeds/gated/layouts/300/items/0/5"
            let leaving = Task { try await client.execute(uri: uri, method: .get) }
            #expect(await Self.arrival(at: gate))
            let staying = Task { try await client.execute(uri: uri, method: .get) }
            leaving.cancel()
            gate.open()
            let response = try await staying.value
            #expect(response.status == .ok)
            #expect(response.text.contains(#""frame": [0, 50, 10, 10]"#))
        }
        #expect(try await fixture.store.layouts(name: "gated").map(\.state) == [.fresh])
    }

    @Test("readers during appends, updates and invalidations see each layout whole: every answer is one of the states written")
    func readersDuringWrites() async throws {
        let fixture = try await ServerFixture()
        let viewport = Rect(x: 0, y: 0, width: 390, height: 100_000)
        // Every state the writer goes through, as the in-memory engine answers it.
        var spec = try Spec(jsonText: ServerFixture.feed)
        var expected: Set<String> = []
        // The states PUT sends: the spec as it stands after some batches.
        var puts: [Int: String] = [:]
        let batches = 12
        for batch in 0...batches {
            if batch > 0 { spec.sections[2].items = spec.sections[2].items.appending([Item(), Item(), Item()]) }
            if batch % 3 == 2 { puts[batch] = JSONWriter.canonical(spec.jsonValue) }
            let result = try LayoutEngine().layout(spec, crossExtent: 390)
            var bytes: [UInt8] = []
            LayoutJSON.appendAnswer(summary: result.summary, elements: result.visibleElements(viewport: viewport), to: &bytes)
            expected.insert(String(decoding: bytes, as: UTF8.self) + "\n")
        }
        let states = expected
        let updates = puts
        let done = Done()
        try await fixture.application(ServerFixture.writable).test(.router) { client in
            let uri = "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,100000"
            let writer = Task {
                defer { done.flag.store(true, ordering: .releasing) }
                for batch in 1...batches {
                    // Each batch appends three items, by POST, or by a PUT of the whole spec with them.
                    let response = if let body = updates[batch] {
                        try await client.execute(uri: "/v1/feeds/feed", method: .put, headers: ServerFixture.authorized, body: ByteBuffer(string: body))
                    } else {
                        try await client.execute(
                            uri: "/v1/feeds/feed/sections/2/items", method: .post, headers: ServerFixture.authorized, body: ByteBuffer(string: "{}\n{}\n{}\n")
                        )
                    }
                    #expect(response.status == .ok, "batch \(batch): \(response.text)")
                    if batch % 4 == 0 {
                        let stale = try await client.execute(uri: "/v1/feeds/feed/layouts/390", method: .delete, headers: ServerFixture.authorized)
                        #expect(stale.status == .noContent)
                    }
                }
            }
            let readers = (0..<3).map { _ in
                Task {
                    var seen: Set<String> = []
                    var torn = 0
                    while !done.flag.load(ordering: .acquiring) {
                        let response = try await client.execute(uri: uri, method: .get)
                        #expect(response.status == .ok, "\(response.text)")
                        if states.contains(response.text) { seen.insert(response.text) } else { torn += 1 }
                    }
                    return (seen.count, torn)
                }
            }
            try await writer.value
            var most = 0
            for reader in readers {
                let (count, torn) = try await reader.value
                #expect(torn == 0)
                most = max(most, count)
            }
            #expect(most >= 2, "the readers saw \(most) states")
            let last = try await client.execute(uri: uri, method: .get)
            #expect(states.contains(last.text))
        }
    }

    @Test("/metrics counts requests by route, method and status, and shows the store's size")
    func metrics() async throws {
        let fixture = try await ServerFixture()
        try await fixture.application().test(.router) { client in
            for _ in 0..<2 { _ = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get) }
            _ = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=x", method: .get)
            _ = try await client.execute(uri: "/v1/nowhere", method: .get)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            #expect(metrics.status == .ok && metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = metrics.text
            #expect(text.contains(#"tessera_http_requests_total{route="/v1/feeds/{name}/layouts/{extent}/visible",method="GET",status="200"} 2"#))
            #expect(text.contains(#"tessera_http_requests_total{route="/v1/feeds/{name}/layouts/{extent}/visible",method="GET",status="400"} 1"#))
            #expect(text.contains(#"tessera_http_requests_total{route="NotFound",method="GET",status="404"} 1"#))
            #expect(text.contains(#"tessera_http_request_duration_seconds_count{route="/v1/feeds/{name}/layouts/{extent}/visible",method="GET",status="200"} 2"#))
            let storeBytes = await fixture.store.fileBytes
            #expect(text.contains("tessera_store_bytes \(storeBytes)"))

            // The store's cache, as its statistics say at the scrape; lookups counted once across scrapes.
            func expectCache(_ text: String, _ statistics: CacheStatistics, sourceLocation: SourceLocation = #_sourceLocation) {
                for line in [
                    "tessera_cache_bytes \(statistics.bytes)", "tessera_cache_budget_bytes \(statistics.budget)",
                    #"tessera_cache_entries{kind="name"} \#(statistics.names)"#, #"tessera_cache_entries{kind="directory"} \#(statistics.layouts)"#,
                    #"tessera_cache_entries{kind="frames"} \#(statistics.frameGroups)"#,
                    #"tessera_cache_lookups_total{kind="directory",result="hit"} \#(statistics.hits)"#,
                    #"tessera_cache_lookups_total{kind="frames",result="miss"} \#(statistics.frameMisses)"#,
                ] {
                    #expect(text.contains(line), "\(line) in \(text)", sourceLocation: sourceLocation)
                }
            }
            let first = fixture.store.cacheStatistics
            #expect(first.hits >= 1 && first.frameMisses >= 1 && first.layouts == 1)
            expectCache(text, first)
            for _ in 0..<3 { _ = try await client.execute(uri: "/v1/feeds/feed/layouts/390/visible?rect=0,0,390,844", method: .get) }
            let second = fixture.store.cacheStatistics
            #expect(second.hits == first.hits + 3)
            expectCache(try await client.execute(uri: "/metrics", method: .get).text, second)
        }
    }
}

/// Set once the writer is done.
final class Done: Sendable {
    let flag = Atomic<Bool>(false)
}
