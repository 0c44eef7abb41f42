import Locking
import TesseraLayout

/// Names as the store files them: in Normalization Form C, so that names
/// Swift calls equal (canonically equivalent) are one key in every cache
/// and one row in the backend, which compares bytes.
extension LayoutStore {
    /// `name` as the store files it (``Spec/normalizedName(_:)``).
    /// - Throws: `conflict` for a name the store holds more than one spec under (stored before names were
    ///   normalized): no request may be answered with the frames of a spec it did not mean.
    package func specName(_ name: String) throws -> String {
        let name = Spec.normalizedName(name)
        if holdsEquivalentSpecs(name) {
            throw StoreError(
                .conflict,
                "the store holds more than one spec under names equivalent to \(name.quotedForMessage) (stored before names were "
                    + "compared by canonical equivalence), and cannot tell which one is meant: delete the name (every spec under an "
                    + "equivalent name goes) and save the one you want again",
                store: location, spec: name
            )
        }
        return name
    }

    /// Whether the store holds more than one spec under names equivalent to
    /// `name` (in NFC), as it knew at open or since.
    func holdsEquivalentSpecs(_ name: String) -> Bool {
        hasNameConflicts && nameConflicts.withLock { $0.contains(name) }
    }

    /// Deletes every spec filed under a name equivalent to `name`, which the
    /// store holds more than one spec under; true when it deleted any.
    func deleteEquivalentSpecs(_ name: String) async throws -> Bool {
        let deleted = try await write { storage in
            // Every name, a page at a time: Swift's == finds the equivalent spellings SQL cannot.
            var spellings: [String] = []
            var after: String?
            while true {
                let page = try await storage.read { rows in try rows.specSummaries(after: after, limit: 10_000) }
                spellings += page.map(\.name).filter { $0 == name }
                guard page.count == 10_000, let last = page.last else { break }
                after = last.name
            }
            for spelling in spellings { _ = try await deleteSpec(spelling: spelling, storage: storage) }
            try await storage.clearNameConflict(name: name)
            return !spellings.isEmpty
        }
        nameConflicts.withLock { _ = $0.remove(name) }
        return deleted
    }

    /// Problems with the names of `specs`: specs filed under equivalent
    /// names, and names not in Normalization Form C.
    static func nameProblems(_ specs: [StoredSpec]) -> [CheckReport.Problem] {
        let classes = Dictionary(grouping: specs.map(\.name)) { $0 }
        return classes.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }).compactMap { name, spellings in
            let normal = Spec.normalizedName(name)
            if spellings.count > 1 {
                let written = spellings.map { "U+" + $0.unicodeScalars.map(\.hexDigits).joined(separator: " ") }.joined(separator: ", ")
                return CheckReport.Problem(spec: normal, message: "\(spellings.count) specs are filed under equivalent names (\(written)), which "
                    + "the store cannot tell apart: every use of the name is refused until it is deleted")
            }
            guard Array(name.utf8) != Array(normal.utf8) else { return nil }
            return CheckReport.Problem(spec: name, message: "its name is not in Normalization Form C, so no request finds it")
        }
    }
}
