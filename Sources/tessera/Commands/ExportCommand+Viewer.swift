import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraViewer

/// `viewer.json` of a tile export: what the folder holds, for the viewer
/// page written beside it (a static host lists no folders). An export into
/// a folder that has one adds to it, so that every feed exported there is shown.
struct ViewerListing: Codable, Equatable {
    var source = "export"
    var specs: [Spec] = []

    struct Spec: Codable, Equatable {
        var name: String
        var axis: Axis
        var layouts: [Layout]
    }

    struct Layout: Codable, Equatable {
        var extent: Double
        var revision: String
        var tileCount: Int
        /// Whether the right-to-left tiles are there too (`--rtl`).
        var rtl: Bool
    }

    /// The largest `viewer.json` read back (a few hundred bytes per layout).
    static let maximumBytes = 8 << 20

    /// The listing an earlier export left in `folder`, or an empty one.
    static func read(in folder: String) throws -> ViewerListing {
        let path = "\(folder)/\(ViewerFiles.sourceName)"
        guard FileManager.default.fileExists(atPath: path) else { return ViewerListing() }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size, size <= maximumBytes, let data = FileManager.default.contents(atPath: path) else {
            throw CommandError("\(path.quotedPathForMessage) is unreadable or over \(maximumBytes) bytes: remove it, or export into another folder")
        }
        guard let listing = try? JSONDecoder().decode(ViewerListing.self, from: data), listing.source == "export" else {
            throw CommandError("\(path.quotedPathForMessage) is not the viewer listing tessera export writes: remove it, or export into another folder")
        }
        return listing
    }

    /// Puts `layout` in the entry of `name`, in place of one at the same extent.
    mutating func add(name: String, axis: Axis, layout: Layout) {
        guard let index = specs.firstIndex(where: { $0.name == name }) else {
            specs.append(Spec(name: name, axis: axis, layouts: [layout]))
            return
        }
        var layout = layout
        if let old = specs[index].layouts.firstIndex(where: { $0.extent == layout.extent }) {
            // Right-to-left tiles of the same revision stay where an earlier export wrote them.
            let previous = specs[index].layouts.remove(at: old)
            layout.rtl = layout.rtl || (previous.rtl && previous.revision == layout.revision)
        }
        specs[index].axis = axis
        specs[index].layouts.append(layout)
        specs[index].layouts.sort { $0.extent < $1.extent }
    }
}

extension TileExport {
    /// The viewer's files and `listing` at the top of the export.
    func writeViewer(_ listing: ViewerListing) throws {
        for file in ViewerFiles.files { try put(file.bytes, at: "\(directory)/\(file.name)") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(listing) else { throw CommandError("the viewer listing could not be encoded") }
        try put(Array(data) + [UInt8(ascii: "\n")], at: "\(directory)/\(ViewerFiles.sourceName)")
    }
}
