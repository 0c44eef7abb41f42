import Foundation
import Testing

extension CLIRunner {
    /// Runs `tessera` through `/bin/sh` for what ``run(_:in:executable:)``
    /// cannot give it: standard input from the file `input`, arguments of
    /// raw bytes (`rawArguments`, shell words appended as written, such as
    /// `"$(printf 'a\377b')"`), virtual memory capped at `memoryMiB`, and a
    /// time limit: a process still running after `seconds` is killed (then
    /// ``Output/signaled`` is true), so that a command that would hang ends
    /// the test instead.
    static func runBounded(
        _ arguments: [String], rawArguments: String = "", input: String = "/dev/null", memoryMiB: Int = 2048, seconds: Double = 60,
        executable path: String? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let script = "ulimit -v \(memoryMiB * 1024) && exec \"$0\" \"$@\" \(rawArguments) < '\(input.replacingOccurrences(of: "'", with: "'\\''"))'"
        process.arguments = ["-c", script, path ?? executable.path] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Killed by ``readToEnd(_:_:of:seconds:)`` once `seconds` have passed.
        let (stdoutData, stderrData) = try readToEnd(out, err, of: process, seconds: seconds)
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            signaled: process.terminationReason == .uncaughtSignal
        )
    }

    /// ``runBounded(_:rawArguments:input:memoryMiB:seconds:executable:)``
    /// for a command that must fail as ``failure(_:in:sourceLocation:)``
    /// says, by itself (neither killed nor out of memory). Returns its line.
    @discardableResult
    static func boundedFailure(
        _ arguments: [String], rawArguments: String = "", input: String = "/dev/null", memoryMiB: Int = 2048, seconds: Double = 60,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let output = try runBounded(arguments, rawArguments: rawArguments, input: input, memoryMiB: memoryMiB, seconds: seconds)
        #expect(!output.signaled, "\(arguments) was killed or crashed (signal \(output.status)): \(output.stderr)", sourceLocation: sourceLocation)
        #expect(output.status == 1, "\(arguments) exited \(output.status)", sourceLocation: sourceLocation)
        #expect(output.stdout.isEmpty, "\(arguments) printed: \(output.stdout)", sourceLocation: sourceLocation)
        let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && !lines[0].isEmpty && lines[1].isEmpty, "\(arguments): not one line on stderr: \(output.stderr)", sourceLocation: sourceLocation)
        return lines.first.map(String.init) ?? ""
    }
}
