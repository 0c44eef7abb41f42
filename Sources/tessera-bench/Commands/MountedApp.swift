import ArgumentParser
import Foundation
import Hummingbird
import Logging
import TesseraHummingbird
import TesseraSQLite
import TesseraStore

/// `tessera-bench mounted`: an app of its own with the layout cache mounted
/// under /layouts and served with ``TesseraServerSettings``, as
/// MountingTheRoutes.md writes it, for `Scripts/mounted-load.sh` to load
/// beside `tessera-server` on the same store.
struct MountedApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mounted",
        abstract: "Serve a store as an app that mounts the routes under /layouts (with its own /hello), until SIGINT or SIGTERM.",
        discussion: "Prints 'listening on http://127.0.0.1:PORT' once it listens, as tessera-server does."
    )

    @Option(help: "The store file.")
    var db: String

    @Option(help: "The port on 127.0.0.1 (0 picks a free one).")
    var port = 0

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535, got \(port)") }
    }

    func run() async throws {
        let settings = TesseraServerSettings()
        try await settings.withThreadPools { executor in
            let store = try LayoutStore(path: db, executor: executor)
            defer { store.close() }
            let router = Router()
            router.get("/hello") { _, _ in "hello" }
            TesseraRoutes(store: store).register(on: router.group("layouts"))
            let app = settings.application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                onServerRunning: { channel in
                    FileHandle.standardOutput.write(Data("listening on http://127.0.0.1:\(channel.localAddress?.port ?? 0)\n".utf8))
                }
            )
            try await app.runService()
        }
    }
}
