import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A raw TCP connection to a test server on 127.0.0.1, for what an HTTP
/// client library would not do: stop mid-request, never read, keep its end
/// open. Every wait is bounded.
final class LoopbackSocket {
    let descriptor: Int32

    /// `receiveBuffer`: the kernel's buffer for what the server sends, to
    /// make a client that does not read hold the server's writes sooner.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBuffer { setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Interrupted by a signal, the connection goes on being made: wait until it is.
        if connected != 0, errno == EINTR {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&poller, 1, 5000) > 0, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 { connected = 0 }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Sends all of `bytes`; false when the server closed or it took over 5 s.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // With a send timeout set, a signal (a child process's SIGCHLD) interrupts the call instead of restarting it.
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// No more bytes from this side; the server still may answer.
    func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// The first bytes the server sends within `seconds` (one read, at most
    /// 4,096 bytes; empty when none came): the rest stays unread.
    func firstBytes(within seconds: Double) -> String {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    /// What the server sends within `seconds`, and whether it closed its
    /// side by then.
    func read(for seconds: Double) -> (text: String, closed: Bool) {
        let deadline = Date().addingTimeInterval(seconds)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (String(decoding: answer, as: UTF8.self), false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return (String(decoding: answer, as: UTF8.self), true) }
            answer.append(contentsOf: buffer[0..<count])
        }
    }
}

/// The open descriptors of a process, from /proc.
func openDescriptors(of process: Process) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? -1
}
