import DocSyncSupport
import Hummingbird
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The access log in the Common Log Format (`host - - [date] "request" status bytes`), to standard output or
/// appended to a file (opened without following a symlink). The request line is untrusted: control characters, `"`
/// and `\` are escaped.
///
/// Lines are buffered (a `write(2)` per line cost a page answer a fifth of its time): they are written, whole and in
/// order, when ``bufferBytes`` are pending, by ``flush()`` — which the server calls every second and when it stops
/// — and when the log is released.
package final class AccessLog: Sendable {
    private let fd: Int32
    /// Lines not written yet (written under the lock, so that they stay whole and in order).
    private let pending = Mutex<[UInt8]>([])
    /// Pending bytes that make ``record(method:target:remote:status:bytes:)`` write them at once.
    static let bufferBytes = 32 << 10
    /// The date field of the current second, formatted once per second and shared by its lines.
    private let stamp = PerSecond { AccessLog.date($0) }

    /// `-`: standard output; else a file path (created 0644, appended).
    package init(destination: String) throws {
        if destination == "-" {
            fd = STDOUT_FILENO
        } else {
            let opened = open(destination, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard opened >= 0 else { throw SystemError("open", path: destination) }
            fd = opened
        }
    }

    deinit {
        flush()
        if fd != STDOUT_FILENO { close(fd) }
    }

    func record(request: Request, remote: String, response: Response) {
        record(
            method: request.method, target: request.uri.string, remote: remote, status: response.status.code,
            bytes: response.body.contentLength)
    }

    /// One line: `bytes` nil is `-` (a streamed body of unknown length).
    func record(method: HTTPRequest.Method, target: String, remote: String, status: Int, bytes: Int?) {
        let target = Self.escaped(String(target.prefix(2048)))
        let bytes = bytes.map(String.init) ?? "-"
        let line = "\(remote) - - [\(date())] \"\(method) \(target) HTTP/1.1\" \(status) \(bytes)\n"
        pending.withLock { pending in
            if pending.capacity < Self.bufferBytes { pending.reserveCapacity(Self.bufferBytes + 4096) }
            pending.append(contentsOf: line.utf8)
            if pending.count >= Self.bufferBytes { write(&pending) }
        }
    }

    /// Writes the pending lines.
    package func flush() {
        pending.withLock { pending in
            if !pending.isEmpty { write(&pending) }
        }
    }

    /// Writes `bytes` whole (short writes continued; a failed write drops them: the log must not stop serving)
    /// and empties them.
    private func write(_ bytes: inout [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// ``date(_:)`` for now, formatted at most once per second.
    private func date() -> String { stamp.now() }

    /// `10/Oct/2000:13:55:36 +0000` (UTC).
    static func date(_ seconds: Int) -> String {
        let time = UTCTime(seconds)
        return "\(time.day)/\(time.month)/\(time.year):\(time.clock) +0000"
    }

    /// nginx-style access-log escaping: `"` and `\` backslashed, anything else not printable ASCII as `\xHH`.
    static func escaped(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7f && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
        }
        if plain { return text }
        // As nginx escapes its log: every other byte as `\xHH` (two digits, so no escape runs into the next).
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out.append(UInt8(ascii: "\\"))
                out.append(byte)
            case 0x20..<0x7f:
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "x")])
                out.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
