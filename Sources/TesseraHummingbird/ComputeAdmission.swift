import Locking
import TesseraLayout
import TesseraStore

/// Which missing layouts a read may compute (`--compute-extents`,
/// `--max-extents`, `--no-compute`), so that no client can fill the disk
/// with widths. Extents being computed count against a spec's limit until
/// they are stored, so concurrent requests for new widths cannot overshoot
/// it together.
package final class ComputeAdmission: Sendable {
    private let configuration: TesseraServiceConfiguration
    /// New extents admitted and not yet stored, by spec name.
    private let pending = Locked<[String: Set<Double>]>([:])

    package init(configuration: TesseraServiceConfiguration) {
        self.configuration = configuration
    }

    /// Admits the computation of `name` at `extent`, whose layout is
    /// missing or stale; `stored` are the spec's stored layouts. Throws the
    /// 404 that names the limit otherwise. Call ``Ticket/release()`` once
    /// the computation ended.
    package func admit(name: String, extent: Double, stored: [StoredLayout]) throws(Problem) -> Ticket {
        let layout = "\(name.quotedForMessage) at \(JSONWriter.format(extent))"
        guard configuration.computesMissingLayouts else {
            throw Problem(.notFound, "the layout of \(layout) is missing or stale, and this server does not compute layouts")
        }
        // A stale layout at an extent already stored is always recomputed.
        if stored.contains(where: { $0.crossExtent == extent }) { return Ticket(admission: nil, name: name, extent: extent) }
        let range = configuration.computeExtents
        guard extent == extent.rounded(), range.contains(extent) else {
            throw Problem(.notFound, "the layout of \(layout) is not stored, and this server computes new layouts only at whole-point extents "
                + "from \(JSONWriter.format(range.lowerBound)) to \(JSONWriter.format(range.upperBound))")
        }
        let limit = configuration.maximumExtents
        let admitted = pending.withLock { pending -> Bool in
            var extents = pending[name, default: []]
            if extents.contains(extent) { return true }
            guard stored.count + extents.count < limit else { return false }
            extents.insert(extent)
            pending[name] = extents
            return true
        }
        guard admitted else {
            throw Problem(.notFound, "the layout of \(layout) is not stored, and \(name.quotedForMessage) already has \(stored.count) stored "
                + "extents, the server's limit of \(limit) extents per spec")
        }
        return Ticket(admission: self, name: name, extent: extent)
    }

    /// A computation admitted: its extent counts against the spec's limit
    /// until released.
    package struct Ticket: Sendable {
        fileprivate let admission: ComputeAdmission?
        fileprivate let name: String
        fileprivate let extent: Double

        package func release() {
            admission?.pending.withLock { pending in
                pending[name]?.remove(extent)
                if pending[name]?.isEmpty == true { pending[name] = nil }
            }
        }
    }
}
