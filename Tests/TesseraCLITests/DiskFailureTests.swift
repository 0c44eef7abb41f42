import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A small tmpfs mounted for one test (root only, where `mount` works):
/// filled to its last byte for a full disk, remounted read-only for a
/// read-only file system.
struct ScratchMount: ~Copyable {
    static var available: Bool { getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/bin/mount") }
    let path: String

    init(megabytes: Int = 8) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-mount-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try #require(Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]) == 0)
    }

    deinit {
        Self.run("/bin/umount", [path])
        rmdir(path)
    }

    /// Fills the file system to its last byte (`dd` ends with ENOSPC).
    func fill() {
        Self.run("/bin/dd", ["if=/dev/zero", "of=\(path)/filler", "bs=64k"])
    }

    /// Makes the file system read-only for everyone.
    func remountReadOnly() throws {
        try #require(Self.run("/bin/mount", ["-o", "remount,ro", path]) == 0)
    }

    /// Runs a system tool to its end; its exit status.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The names in the mount's top folder.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

/// Full and read-only disks, for real: each failure names its cause and
/// path, and reads go on working.
@Suite("a full or read-only disk", .serialized, .timeLimit(.minutes(3)), .enabled(if: ScratchMount.available))
struct DiskFailureTests {
    static let spec = #"{"format": 1, "name": "feed", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 3000, "cycle": [{}]}}]}"#

    /// A store of `spec` at 390 in `folder`.
    static func store(in folder: String) throws -> String {
        let spec = folder + "/feed.json"
        try Self.spec.write(toFile: spec, atomically: false, encoding: .utf8)
        let store = folder + "/feed.sqlite"
        let made = try CLIRunner.run(["precompute", spec, "--db", store, "--width", "390", "--quiet"])
        try #require(made.status == 0, "\(made.stderr)")
        return store
    }

    /// A `list`, a `check` and a `query` of `store`.
    static func reads(_ store: String) -> [[String]] {
        [
            ["list", "--db", store],
            ["check", "--db", store],
            ["query", "--db", store, "--name", "feed", "--width", "390", "--rect", "0,0,390,1000"],
        ]
    }

    @Test("append on a full disk names the full file system; list, check and query still answer")
    func appendOnFullDisk() throws {
        let mount = try ScratchMount()
        let store = try Self.store(in: mount.path)
        let items = try CLIRunner.file("item.ndjson", in: FileManager.default.temporaryDirectory, "{}\n")
        mount.fill()
        let append = try CLIRunner.run(["append", "--db", store, "--name", "feed", "--section", "0", items])
        #expect(append.status == 1)
        #expect(append.stderr.contains("the file system holding the store '\(store)' is full; nothing was written"), "\(append.stderr)")
        #expect(!append.stderr.contains("disk I/O error"), "\(append.stderr)")
        for read in Self.reads(store) {
            let output = try CLIRunner.run(read)
            #expect(output.status == 0, "\(read[0]) on a full disk: \(output.stderr)")
        }
    }

    @Test("export --out onto a full disk names that disk and the copy, not the store's")
    func exportOntoFullDisk() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let store = try Self.store(in: directory.path)
            let mount = try ScratchMount(megabytes: 1)
            mount.fill()
            let out = mount.path + "/copy.sqlite"
            let export = try CLIRunner.run(["export", "--db", store, "--out", out])
            #expect(export.status == 1)
            #expect(export.stderr.contains("the file system holding '\(out)' is full"), "\(export.stderr)")
            #expect(!export.stderr.contains("the store '\(store)'") && !export.stderr.contains("holding the store"), "\(export.stderr)")
            #expect(try mount.contents() == ["filler"])
        }
    }

    @Test("export --tiles onto a full disk writes nothing: no tiles, no manifest, no staging folder")
    func tilesOntoFullDisk() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let spec = try CLIRunner.file("big.json", in: directory, #"""
                {"format": 1, "name": "big", "sections": [{"layout": {"kind": "grid", "fraction": 3}, "items": {"count": 200000, "cycle": [{}]}}]}
                """#)
            let store = directory.appendingPathComponent("big.sqlite").path
            #expect(try CLIRunner.run(["precompute", spec, "--db", store, "--width", "390", "--quiet"]).status == 0)
            let mount = try ScratchMount(megabytes: 2)
            let tiles = mount.path + "/site"
            let export = try CLIRunner.run(["export", "--db", store, "--tiles", tiles, "--name", "big", "--width", "390"])
            #expect(export.status == 1)
            #expect(export.stderr.contains("the file system holding '\(tiles)' is full"), "\(export.stderr)")
            let left = try mount.contents()
            #expect(left.isEmpty, "left behind: \(left)")
            // Into a folder that exists: what it held stays, nothing is added.
            try FileManager.default.createDirectory(atPath: tiles, withIntermediateDirectories: true)
            try "kept".write(toFile: tiles + "/index.html", atomically: false, encoding: .utf8)
            let again = try CLIRunner.run(["export", "--db", store, "--tiles", tiles, "--name", "big", "--width", "390"])
            #expect(again.status == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: tiles) == ["index.html"])
        }
    }

    @Test("export --tiles into a folder that holds an export: the new layout's files join it, the old stay")
    func tilesMerge() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let store = try Self.store(in: directory.path)
            let tiles = directory.appendingPathComponent("site").path
            for width in ["390", "820"] {
                let export = try CLIRunner.run(["export", "--db", store, "--tiles", tiles, "--name", "feed", "--width", width])
                #expect(export.status == 0, "\(export.stderr)")
            }
            let layouts = try FileManager.default.contentsOfDirectory(atPath: tiles + "/v1/feeds/feed/layouts").sorted()
            #expect(layouts == ["390", "820"])
            for width in layouts {
                #expect(FileManager.default.fileExists(atPath: "\(tiles)/v1/feeds/feed/layouts/\(width)/tiles"))
            }
            // Beside the tiles, the viewer's page, and its listing of both layouts.
            #expect(try FileManager.default.contentsOfDirectory(atPath: tiles).sorted() == ["index.html", "tessera-tiles.js", "v1", "viewer.js", "viewer.json"])
            let listing = try String(contentsOfFile: tiles + "/viewer.json", encoding: .utf8)
            #expect(listing.contains("\"feed\"") && listing.contains("390") && listing.contains("820"), "\(listing)")
        }
    }

    @Test("a read-only file system: writes say so (EROFS), reads answer and create nothing")
    func readOnlyFileSystem() throws {
        let mount = try ScratchMount()
        let store = try Self.store(in: mount.path)
        let copy = mount.path + "/copy.sqlite"
        #expect(try CLIRunner.run(["export", "--db", store, "--out", copy]).status == 0)
        try mount.remountReadOnly()
        let before = try mount.contents()
        let items = try CLIRunner.file("item.ndjson", in: FileManager.default.temporaryDirectory, "{}\n")
        for db in [store, copy] {
            let append = try CLIRunner.run(["append", "--db", db, "--name", "feed", "--section", "0", items])
            #expect(append.status == 1)
            #expect(append.stderr.contains("is on a read-only file system (EROFS)"), "\(append.stderr)")
            for read in Self.reads(db) {
                let output = try CLIRunner.run(read)
                #expect(output.status == 0, "\(read[0]): \(output.stderr)")
            }
        }
        let out = mount.path + "/another.sqlite"
        let export = try CLIRunner.run(["export", "--db", store, "--out", out])
        #expect(export.status == 1)
        #expect(export.stderr.contains("'\(out)' is on a read-only file system (EROFS)"), "\(export.stderr)")
        #expect(try mount.contents() == before)
    }

    @Test("a store and a folder this user may not write (run as nobody): append and export --out say no permission (EACCES)")
    func noPermission() async throws {
        try await CLIRunner.inTemporaryDirectory { directory in
            let store = try Self.store(in: directory.path)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            let items = try CLIRunner.file("item.ndjson", in: FileManager.default.temporaryDirectory, "{}\n")
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: items)
            let before = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            let append = try ReadOnlyCommandTests.runAsNobody(["append", "--db", store, "--name", "feed", "--section", "0", items])
            #expect(append.status == 1)
            #expect(append.stderr.contains("no permission to write the store '\(store)'") && append.stderr.contains("(EACCES)"), "\(append.stderr)")
            let out = directory.appendingPathComponent("copy.sqlite").path
            let export = try ReadOnlyCommandTests.runAsNobody(["export", "--db", store, "--out", out])
            #expect(export.status == 1)
            #expect(export.stderr.contains("no permission to write '\(out)'") && export.stderr.contains("(EACCES)"), "\(export.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == before)
        }
    }
}
