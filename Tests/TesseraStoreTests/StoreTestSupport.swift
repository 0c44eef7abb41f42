import Foundation
import TesseraLayout
@testable import TesseraStore

/// A store in a fresh temporary folder, removed when the test ends.
final class TemporaryStore {
    let directory: URL
    let path: String
    let store: LayoutStore

    init(registry: LayoutRegistry = .standard, readerCacheLimit: Int = 2_000_000) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("layouts.sqlite").path
        store = try LayoutStore(path: path, registry: registry, readerCacheLimit: readerCacheLimit)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func file(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
