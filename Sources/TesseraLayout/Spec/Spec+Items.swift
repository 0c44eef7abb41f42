#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a store needs of a spec's items before it lays them out.
extension Spec {
    /// Items in all sections, when every section's count is known without
    /// reading a file.
    package var knownItemCount: Int? {
        sections.reduce(0 as Int?) { total, section in total.flatMap { total in section.items.knownCount.map { total + $0 } } }
    }

    /// This spec with every items file named by its resolved path, so that a
    /// stored spec reads the same files wherever it is loaded from.
    package func resolvingItemFiles() -> Spec {
        var copy = self
        for index in copy.sections.indices {
            copy.sections[index].items = copy.sections[index].items.renamingFiles { resolved in
                realpath(resolved, nil).map { pointer in
                    defer { free(pointer) }
                    return String(cString: pointer)
                } ?? resolved
            }
        }
        return copy
    }
}
