import Foundation
import Testing

/// The harness itself: a child that hangs, or leaves its output open to a
/// process of its own, fails its test in bounded time instead of holding
/// the whole test run.
@Suite("CLI test harness")
struct CLIRunnerTests {
    /// A shell that prints, then runs on: with its output open, or closed.
    @Test("a child still running after the limit is killed, and its output returned, whether or not it closed its output", arguments: [
        "echo started; exec sleep 30", "echo started; exec sleep 30 >&- 2>&-",
    ])
    func killsAHangingChild(script: String) throws {
        let started = Date()
        let output = try CLIRunner.run(["-c", script], executable: "/bin/sh", seconds: 1)
        #expect(output.signaled && output.status == SIGKILL)
        #expect(output.stdout == "started\n")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("on a terminal too: a hanging child is killed after the limit, and what it showed returned")
    func killsAHangingChildOnATerminal() throws {
        let started = Date()
        let output = try CLIRunner.runOnTerminal(["-c", "echo shown; echo piped >&2; exec sleep 30"], terminal: .stdout, executable: "/bin/sh", seconds: 1)
        #expect(output.signaled && output.status == SIGKILL)
        #expect(output.stdout == "shown\n" && output.stderr == "piped\n")
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test("a child whose output a process it started keeps open fails the run, in bounded time")
    func failsOnOutputLeftOpen() throws {
        let started = Date()
        #expect(throws: CLIRunner.Unfinished.self) {
            // The shell exits at once; the sleep it left behind holds its stdout
            // past the 1 + 10 s the harness waits, and ends soon after.
            try CLIRunner.run(["-c", "sleep 15 & echo started"], executable: "/bin/sh", seconds: 1)
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test("on a terminal, a terminal a process it started keeps open fails the run, in bounded time")
    func failsOnTerminalLeftOpen() throws {
        let started = Date()
        #expect(throws: CLIRunner.Unfinished.self) {
            try CLIRunner.runOnTerminal(["-c", "sleep 15 & echo started"], terminal: .stderr, executable: "/bin/sh", seconds: 1)
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
