import TesseraLayout

/// Reading stored specs, and the engine's errors named by spec.
extension LayoutStore {
    /// Runs `body`, naming the spec in the errors of the engine.
    package func reportingSpecErrors<T>(name: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw Self.naming(name, in: error)
        }
    }

    /// Runs `body`, naming the spec in the errors of the engine.
    package func reportingSpecErrors<T>(name: String?, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.naming(name, in: error)
        }
    }

    /// An engine's error as the store's, naming spec `name`.
    private static func naming(_ name: String?, in error: any Error) -> any Error {
        switch error {
        case let error as SpecError:
            return StoreError.invalidSpec(error, name: name)
        case var error as StoreError where error.code == .invalidSpec && error.spec == nil:
            error.spec = name
            return error
        default:
            return error
        }
    }

    struct LoadedSpec: Sendable {
        var id: Int64
        var spec: Spec
        var contentHash: String
    }

    /// `body`, which reads a stored spec of `name`, its spec errors thrown as a spec this program cannot read.
    func readingStored<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as SpecError { throw StoreError.unreadableSpec(name: name, store: location, error) }
    }

    /// Parses stored JSON; text that does not parse is damage.
    func parseStored(_ text: String, name: String) throws -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) is not valid JSON (\(error))")
        }
    }

    /// The spec stored in `record` and its sections' `bodies`, or its
    /// header alone (no sections) when `bodies` is nil.
    func storedSpec(_ record: SpecRow, bodies: [String]?, name: String) throws -> Spec {
        guard case .object(var header) = try parseStored(record.body, name: name) else {
            throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) has a header that is not an object")
        }
        if let bodies, bodies.count != record.sectionCount {
            throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) has \(bodies.count) section rows, not \(record.sectionCount)")
        }
        header["sections"] = .array(try (bodies ?? []).map { try parseStored($0, name: name) })
        // The name is the row's: a spec stored before the rule for names
        // (one with a control character, say) stays readable.
        header["name"] = nil
        var spec = try readingStored(name) { try Spec(json: .object(header), registry: registry) }
        spec.name = name
        return spec
    }

    func loadSpec(name: String, storage: RowSnapshot) throws -> LoadedSpec? {
        guard let record = try storage.spec(name: name) else { return nil }
        var spec = try storedSpec(record, bodies: try storage.sections(specID: record.id).map(\.body), name: name)
        let runs = Dictionary(grouping: try storage.itemRuns(specID: record.id, section: nil), by: \.section)
        for (index, sectionRuns) in runs {
            guard spec.sections.indices.contains(index) else {
                throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) has items appended to a section \(index) it does not have")
            }
            spec.sections[index] = try appending(sectionRuns, to: spec.sections[index], name: name)
        }
        return LoadedSpec(id: record.id, spec: spec, contentHash: record.contentHash)
    }

    /// Section `index` of a stored spec, read on its own: its body and the
    /// item runs appended to it (those that start before item `runsBefore`
    /// when given).
    func storedSection(specID: Int64, index: Int, name: String, storage: RowTransaction, runsBefore: Int? = nil) async throws -> Section {
        let base = try await storedBody(specID: specID, index: index, name: name, storage: storage)
        let runs = try await storage.read { try $0.itemRuns(specID: specID, section: index) }
        return try appending(runs.filter { $0.firstItem < runsBefore ?? .max }, to: base, name: name)
    }

    /// Section `index` of a stored spec as its stored body holds it,
    /// without the item runs appended to it.
    func storedBody(specID: Int64, index: Int, name: String, storage: RowTransaction) async throws -> Section {
        guard let body = try await storage.read({ try $0.sections(specID: specID, index: index).first?.body }) else {
            throw StoreError.damaged(store: location, spec: name, "the stored spec \(name.quotedForMessage) has no section \(index)")
        }
        let json = try parseStored(body, name: name)
        return try readingStored(name) { try Section(json: json, index: index, registry: registry) }
    }
}

/// What a save did: the layouts now stored for the spec, and what it did to each.
public struct SaveResult: Sendable, Hashable {
    /// The spec's layouts after the save, by extent.
    public var layouts: [StoredLayout]
    /// Kept, shifted, resumed and recomputed sections per layout.
    public var report: UpdateReport
    /// Whether the save stored a spec under a name that had none (else it
    /// replaced or kept the one stored).
    public var created: Bool

    public init(layouts: [StoredLayout], report: UpdateReport, created: Bool = false) {
        self.layouts = layouts
        self.report = report
        self.created = created
    }
}
