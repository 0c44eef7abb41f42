import Foundation
import TesseraLayout

/// A placer's state as stored with its section, so that appended items can
/// go on from where the layout stopped.
enum PlacerState {
    /// One encoder for every section: making one costs as much as a small state.
    private static let encoder = JSONEncoder()

    /// The encoded state, or nil for kinds that cannot resume (they are laid
    /// out again on append).
    static func encode(_ placer: any ItemPlacer) throws -> [UInt8]? {
        guard let resumable = placer as? any ResumableItemPlacer else { return nil }
        return Array(try encoder.encode(resumable))
    }

    /// Restores a placer of the same type as `fresh` from `bytes`.
    static func decode(_ bytes: [UInt8], like fresh: any ItemPlacer) throws -> (any ResumableItemPlacer)? {
        guard let resumable = fresh as? any ResumableItemPlacer else { return nil }
        return try restore(bytes, as: resumable)
    }

    /// Opens the existential, so the decoder knows the concrete type.
    private static func restore<Placer: ResumableItemPlacer>(_ bytes: [UInt8], as fresh: Placer) throws -> Placer {
        try JSONDecoder().decode(Placer.self, from: Data(bytes))
    }
}
