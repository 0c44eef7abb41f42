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
    @Test("a cluster the script starts holds none of its caller's descriptors: no process of it holds a pipe open in the caller, which ends when the caller closes it")
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
        // Nor does any process of the cluster. A child another test of this
        // process started meanwhile may hold it (the pipe is inheritable, as
        // the script's caller's are), and keeps it until it ends.
        let holders = Self.holders(of: pipeTarget)
        let inCluster = holders.filter { Self.process($0, descendsFrom: pid) }
        #expect(inCluster.isEmpty, "processes of the cluster hold the caller's pipe: \(inCluster)")
        guard holders.isEmpty else { return }
        // Nobody else: end of file at once, not a read that waits for the server to end.
        let flags = fcntl(readEnd, F_GETFL)
        #expect(fcntl(readEnd, F_SETFL, flags | O_NONBLOCK) == 0)
        var byte: UInt8 = 0
        #expect(read(readEnd, &byte, 1) == 0, "the pipe's read end sees its end")
    }

    /// The processes but this one with a descriptor on `target` (a
    /// descriptor's link in /proc, such as "pipe:[123]").
    static func holders(of target: String) -> [Int32] {
        let files = FileManager.default
        let processes = ((try? files.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        return processes.filter { process in
            process != getpid() && ((try? files.contentsOfDirectory(atPath: "/proc/\(process)/fd")) ?? []).contains { descriptor in
                (try? files.destinationOfSymbolicLink(atPath: "/proc/\(process)/fd/\(descriptor)")) == target
            }
        }
    }

    /// Whether `process` is `ancestor` or one of its descendants, by the
    /// parents /proc names (false once a process in the chain has ended).
    static func process(_ process: Int32, descendsFrom ancestor: Int32) -> Bool {
        var current = process
        while current > 1 {
            if current == ancestor { return true }
            // "pid (name) state ppid …": the name may hold spaces and parentheses.
            guard let stat = try? String(contentsOfFile: "/proc/\(current)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")"),
                  let parent = stat[stat.index(after: nameEnd)...].split(separator: " ").dropFirst().first.flatMap({ Int32($0) })
            else { return false }
            current = parent
        }
        return false
    }
}
