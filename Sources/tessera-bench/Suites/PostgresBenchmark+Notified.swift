#if PostgreSQL
import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraPostgres
import TesseraStore

extension PostgresBenchmark {
    /// How long a reader with `freshness=notified` keeps answering from
    /// what it resolved after another store committed: `writer` saves a
    /// small feed in turn as two versions, and `reader` (with its own
    /// connections, as another machine) queries it in a loop from the
    /// moment the save returns until it answers the new version.
    static func notificationDelays(writer: LayoutStore, reader: LayoutStore, rounds: Int = 50) async throws -> Samples {
        let versions = try [1.0, 0.75].map { aspect in
            try Spec(jsonText: """
                {"format": 1, "sections": [{"layout": {"kind": "grid", "fraction": 3},
                  "items": {"count": 300, "cycle": [{"aspectRatio": \(aspect)}]}}]}
                """)
        }
        let viewport = Rect(x: 0, y: 0, width: BenchSpecs.width, height: 844)
        let answers = try versions.map { try LayoutEngine().layout($0, crossExtent: BenchSpecs.width).visibleElements(viewport: viewport) }
        try await writer.save(versions[0], as: "probe", crossExtents: [BenchSpecs.width])
        var delays = Samples()
        for round in 1...rounds {
            let version = round % 2
            // The reader warm on the version before.
            _ = try await reader.visibleElements(name: "probe", crossExtent: BenchSpecs.width, viewport: viewport)
            try await writer.save(versions[version], as: "probe")
            let saved = now()
            while try await reader.visibleElements(name: "probe", crossExtent: BenchSpecs.width, viewport: viewport, computeIfMissing: false)
                != answers[version] {
                guard now() - saved < 5 else { throw CommandError("bench: a reader with freshness=notified did not see a commit within 5 s") }
            }
            delays.add(now() - saved)
        }
        return delays
    }
}

#endif
