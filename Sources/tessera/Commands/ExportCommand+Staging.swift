import Foundation
import TesseraCommandSupport
import TesseraLayout
import TesseraSQLite
import TesseraStore

/// A folder an export writes into before anything reaches its target, so
/// that the target gets all of the export or none of it: beside the target
/// when it does not exist yet (renamed to it at the end), else inside it
/// (merged into it at the end, each file renamed over its old version).
struct StagingFolder {
    /// The folder the export is for.
    let target: String
    /// Where the export writes meanwhile (on the target's file system).
    let folder: String

    /// Creates the staging folder (and the target's missing parents).
    init(target: String) throws {
        self.target = target
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: target, isDirectory: &isFolder)
        if exists && !isFolder.boolValue { throw CommandError("\(target.quotedPathForMessage) exists and is not a folder") }
        folder = exists ? "\(target)/.tessera-export-\(getpid())" : "\(target).tessera-export-\(getpid())"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Self.failure(errno, path: target, target: target)
        }
    }

    /// Moves everything written into place; the staging folder is gone after.
    func commit() throws {
        try Self.move(folder, into: target)
    }

    /// Removes the staging folder and all written into it.
    func discard() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Renames `source` to `target`, or when `target` is a folder already,
    /// each entry into it: folders first, files last (a manifest after the
    /// tiles it names).
    private static func move(_ source: String, into target: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), isFolder.boolValue else {
            guard rename(source, target) == 0 else { throw failure(errno, path: target, target: target) }
            return
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        let folders = entries.filter { entry in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(source)/\(entry)", isDirectory: &isFolder) && isFolder.boolValue
        }
        for entry in folders { try move("\(source)/\(entry)", into: "\(target)/\(entry)") }
        for entry in entries where !folders.contains(entry) {
            guard rename("\(source)/\(entry)", "\(target)/\(entry)") == 0 else { throw failure(errno, path: "\(target)/\(entry)", target: target) }
        }
        rmdir(source)
    }

    /// The words of a failed write or rename under the target.
    static func failure(_ code: Int32, path: String, target: String) -> StoreError {
        .fileSystem(code, path: path, doing: "writing the export", outcome: "nothing was put under \(target.quotedPathForMessage)")
    }
}
