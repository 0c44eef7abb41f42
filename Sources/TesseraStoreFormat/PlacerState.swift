import Foundation
import TesseraLayout

/// A placer's state as stored with its section, so that appended items can
/// go on from where the layout stopped: `v` and the placer kind's state
/// version, a colon, then the placer's JSON. A state written before versions
/// existed (plain JSON) counts as version 1.
package enum PlacerState {
    /// What a stored state gives back.
    package enum Restored {
        /// The placer, as it was after the section's last item.
        case placer(any ResumableItemPlacer)
        /// The kind does not resume: its sections are laid out again.
        case notResumable
        /// The state is of another version, or does not decode: the
        /// section is laid out again, and the update report counts it.
        case unreadable
    }

    /// The encoded state, or nil for kinds that cannot resume (they are laid
    /// out again on append).
    package static func encode(_ placer: any ItemPlacer) throws -> [UInt8]? {
        guard let resumable = placer as? any ResumableItemPlacer else { return nil }
        return Array("v\(type(of: resumable).stateVersion):".utf8) + (try CompactJSONEncoder.encode(resumable))
    }

    /// Restores a placer of the same type as `fresh` from `bytes`.
    package static func decode(_ bytes: [UInt8], like fresh: any ItemPlacer) -> Restored {
        guard let resumable = fresh as? any ResumableItemPlacer else { return .notResumable }
        return restore(bytes, as: resumable)
    }

    /// Opens the existential, so the decoder knows the concrete type.
    private static func restore<Placer: ResumableItemPlacer>(_ bytes: [UInt8], as fresh: Placer) -> Restored {
        var version = 1
        var json = bytes[...]
        if bytes.first == UInt8(ascii: "v"), let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            guard let stored = Int(String(decoding: bytes[1..<colon], as: UTF8.self)) else { return .unreadable }
            version = stored
            json = bytes[(colon + 1)...]
        }
        guard version == Placer.stateVersion, let placer = try? JSONDecoder().decode(Placer.self, from: Data(json)) else {
            return .unreadable
        }
        return .placer(placer)
    }
}
