import Foundation
import Synchronization

/// An HTTP/1.1 server on a free 127.0.0.1 port whose every response is scripted by the test, byte for byte:
/// wrong lengths, dropped connections, stalls, multipart and encoded bodies. Raw POSIX sockets, one thread per
/// connection, `Connection: close` on every response. Records every request for assertions.
package final class FaultServer: Sendable {
    /// Builds the response to the `index`-th request (0-based).
    package typealias Handler = @Sendable (_ request: FaultRequest, _ index: Int) -> FaultResponse

    package let port: UInt16
    private let listenFD: Int32
    private let handler: Handler
    private let state = Mutex(State())

    private struct State {
        var requests: [FaultRequest] = []
        var connections: Set<Int32> = []
        var stopped = false
    }

    package init(handler: @escaping Handler) throws {
        let (fd, port) = try Loopback.listen()
        self.listenFD = fd
        self.port = port
        self.handler = handler
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "fault-server"
        thread.start()
    }

    deinit { stop() }

    package func url(_ path: String = "file") -> String { "http://127.0.0.1:\(port)/\(path.drop { $0 == "/" })" }

    /// Every request received so far.
    package var requests: [FaultRequest] { state.withLock { $0.requests } }

    /// Closes the listening socket and every open connection (idempotent).
    package func stop() {
        let connections: Set<Int32>? = state.withLock { state in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.connections
        }
        guard let connections else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        close(listenFD)
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        while !stopped {
            let fd = accept(listenFD, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            let registered = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections.insert(fd)
                return true
            }
            guard registered else {
                close(fd)
                return
            }
            let thread = Thread { [self] in
                serve(fd)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        guard let request = readRequest(fd) else { return }
        let index = state.withLock { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        let response = handler(request, index)
        var head =
            response.preamble
            + "HTTP/1.1 \(response.status) \(response.reason.isEmpty ? "Status" : response.reason)\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "Connection: close\r\n\r\n"
        guard send(fd, Array(head.utf8)) else { return }
        var body = response.body
        if let stall = response.stall {
            guard send(fd, frame(Array(body.prefix(stall.after)), chunked: response.chunked)) else { return }
            let deadline = Date().addingTimeInterval(stall.seconds)
            while Date() < deadline, !stopped { usleep(20_000) }
            return
        }
        if let trickle = response.trickle {
            let piece = max(1, trickle.bytesPerSecond / 10)  // ten sends a second
            let deadline = Date().addingTimeInterval(trickle.seconds)
            var offset = 0
            while offset < body.count, Date() < deadline, !stopped {
                let next = Array(body[offset..<min(body.count, offset + piece)])
                guard send(fd, frame(next, chunked: response.chunked)) else { return }
                offset += next.count
                usleep(UInt32(1_000_000 * next.count / max(1, trickle.bytesPerSecond)))
            }
            return
        }
        if let limit = response.closeAfter { body = Array(body.prefix(limit)) }
        var offset = 0
        let pieceSize = response.throttle.map { max(1024, min(256 * 1024, $0 / 20)) } ?? 256 * 1024
        let started = Date()
        while offset < body.count {  // in pieces, so a client sees the body arrive over time
            let piece = Array(body[offset..<min(body.count, offset + pieceSize)])
            guard send(fd, frame(piece, chunked: response.chunked)) else { return }
            offset += piece.count
            if let rate = response.throttle {  // pace to the rate: sleep until this many bytes are due
                let due = started.addingTimeInterval(Double(offset) / Double(rate))
                while Date() < due, !stopped { usleep(useconds_t(min(20_000, max(1, due.timeIntervalSinceNow * 1e6)))) }
            }
        }
        if response.chunked, response.closeAfter == nil { _ = send(fd, Array("0\r\n\r\n".utf8)) }
    }

    private func frame(_ bytes: [UInt8], chunked: Bool) -> [UInt8] {
        guard chunked, !bytes.isEmpty else { return bytes }
        return Array((String(bytes.count, radix: 16) + "\r\n").utf8) + bytes + Array("\r\n".utf8)
    }

    private func readRequest(_ fd: Int32) -> FaultRequest? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !data.ends(with: [13, 10, 13, 10]) {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 || data.count > 65536 { return nil }
            data += buffer[0..<n]
        }
        let lines = String(decoding: data, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        guard let first = lines.first else { return nil }
        let parts = first.split(separator: " ")
        guard parts.count == 3 else { return nil }
        return FaultRequest(method: String(parts[0]), path: String(parts[1]), headers: Array(lines.dropFirst()))
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
