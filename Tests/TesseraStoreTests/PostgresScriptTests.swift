import Foundation
import Testing
import TesseraTestSupport

/// Scripts/postgres.sh as the tests start it: through system(3), from a
/// process whose other tests hold pipes open at the same time.
@Suite("PostgreSQL tests: the script that starts a cluster")
struct PostgresScriptTests {
    /// A pipe's write end open in the caller, as another test's child's
    /// pipe is: the server must not keep a copy, or a read of the pipe
    /// never ends (a full test run once hung on one for good).
    @Test("a cluster the script starts holds none of its caller's descriptors: a pipe open in the caller ends when the caller closes it")
    func serverInheritsNoDescriptor() throws {
        // Installed when missing, as every PostgreSQL test has it.
        _ = try PostgresTestServer.url()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-script-\(UUID().uuidString.prefix(8))").path
        defer {
            _ = PostgresTestServer.script(["stop", directory])
            try? FileManager.default.removeItem(atPath: directory)
        }
        _ = try PostgresTestServer.script(["start", directory]).get()
        close(writeEnd)
        // The server's pid, then the pipe: no process holds its write end now.
        let pidLine = try String(contentsOfFile: directory + "/data/postmaster.pid", encoding: .utf8).split(separator: "\n").first
        let pid = try #require(pidLine.flatMap { Int32($0) })
        let serverDescriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
        #expect(serverDescriptors.count > 0, "the server's descriptors are listed")
        let pipeTarget = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(readEnd)")
        let held = serverDescriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == pipeTarget }
        #expect(held.isEmpty, "the server holds the caller's pipe as descriptors \(held)")
        // End of file at once, not a read that waits for the server to end.
        let flags = fcntl(readEnd, F_GETFL)
        #expect(fcntl(readEnd, F_SETFL, flags | O_NONBLOCK) == 0)
        var byte: UInt8 = 0
        #expect(read(readEnd, &byte, 1) == 0, "the pipe's read end sees its end")
    }
}
