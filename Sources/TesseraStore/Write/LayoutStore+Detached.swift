import Locking
import TesseraLayout
import TesseraStoreFormat

/// Computing a missing layout without holding the writer: the layout is
/// computed into memory from a read of its spec, then stored in one short
/// write, while other reads and writes go on.
extension LayoutStore {
    /// Computes the layout of `name` at `crossExtent` once for every async
    /// caller asking meanwhile: the first starts the computation, the others
    /// wait for it. The computation is not cancelled when a caller is.
    func computeShared(name: String, crossExtent: Double, progress: (@Sendable (PrecomputeProgress) -> Void)?) async throws -> ComputedLayout {
        let key = LayoutKey(name: name, crossExtent: crossExtent)
        let (task, started) = flights.withLock { table -> (Task<ComputedLayout, any Error>, Bool) in
            if let running = table[key] { return (running, false) }
            // On the store's executor: computing and storing block a thread.
            let task = Task<ComputedLayout, any Error>(executorPreference: executor) {
                defer { _ = self.flights.withLock { $0.removeValue(forKey: key) } }
                // Not cancelled with a caller: the others may still wait for it.
                return try await self.computeGate.pass {
                    // A spec that changed while it was laid out is laid out again,
                    // as it now is: a query asked for the layout, not for that version.
                    for _ in 0..<Self.computeAttempts {
                        if let computed = try await self.computeDetached(name: name, crossExtent: crossExtent, progress: progress) { return computed }
                    }
                    throw StoreError(.conflict, "spec \(name.quotedForMessage) changed while its layout at \(JSONWriter.format(crossExtent)) was "
                        + "computed, \(Self.computeAttempts) times in a row; try again", spec: name, crossExtent: crossExtent)
                }
            }
            table[key] = task
            return (task, true)
        }
        let result = try await task.value
        // Only the caller that started it computed it; the others waited.
        return ComputedLayout(layout: result.layout, computed: result.computed && started)
    }

    /// How often a computation starts again when the spec changed under it.
    static let computeAttempts = 3

    /// Reads the spec, computes its layout into memory on the executor's background threads, and stores
    /// it in one short write unless another writer did meanwhile; nil when the spec changed while laid out.
    func computeDetached(name: String, crossExtent: Double, progress: (@Sendable (PrecomputeProgress) -> Void)?) async throws -> ComputedLayout? {
        enum Found: Sendable { case fresh(StoredLayout), spec(LoadedSpec, SpecFingerprint) }
        let found: Found = try await readAsync { storage in
            if let fresh = try self.freshRecord(name: name, crossExtent: crossExtent, storage: storage) { return .fresh(fresh.layout) }
            guard let loaded = try self.loadSpec(name: name, storage: storage) else { throw StoreError.noSuchSpec(name: name) }
            let fingerprint = try self.reportingSpecErrors(name: name) { try SpecFingerprint(spec: loaded.spec) }
            guard fingerprint.specHash == loaded.contentHash else {
                throw StoreError(.conflict, "the items files of spec \(name.quotedForMessage) changed since it was saved; save the spec again "
                    + "to lay out the new items", spec: name, crossExtent: crossExtent)
            }
            return .spec(loaded, fingerprint)
        }
        guard case .spec(let loaded, let fingerprint) = found else {
            if case .fresh(let layout) = found { return ComputedLayout(layout: layout, computed: false) }
            preconditionFailure("unreachable")
        }
        let computed = try await executor.runInBackground {
            try self.computeBuffered(loaded.spec, name: name, crossExtent: crossExtent, progress: progress, cancellation: nil)
        }
        let result: ComputedLayout? = try await onExecutor { try await self.write { storage in
            if let fresh = try await storage.read({ try $0.freshLayoutRecord(name: name, crossExtent: crossExtent) }) {
                return ComputedLayout(layout: fresh.layout, computed: false)
            }
            guard let record = try await storage.read({ try $0.spec(name: name) }), record.contentHash == fingerprint.specHash, record.id == loaded.id else {
                return nil
            }
            let id = try await self.storeLayout(
                loaded.spec, name: name, specID: loaded.id, fingerprint: fingerprint, crossExtent: crossExtent, computed: HandOff(ended: computed),
                storage: storage, progress: nil
            )
            guard let stored = try await storage.read({ try $0.layoutRecord(id: id) }) else {
                throw StoreError(.internal, "the layout of \(name.quotedForMessage) at \(JSONWriter.format(crossExtent)) vanished while it was written",
                                 spec: name, crossExtent: crossExtent)
            }
            return ComputedLayout(layout: stored.layout, computed: true)
        } }
        if result != nil {
            let cells = computed.totals.cellCount
            progress?(PrecomputeProgress(specName: name, crossExtent: crossExtent, cellsWritten: cells, cellsExpected: cells))
        }
        return result
    }
}
