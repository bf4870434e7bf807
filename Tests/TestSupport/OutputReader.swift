import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a child process's output pipe without ever blocking past a deadline: `poll(2)` with the time left, then a
/// non-blocking `read(2)`. A test waiting for a daemon's output can therefore not hang on a silent child.
package final class OutputReader {
    private let fd: Int32
    private var bytes: [UInt8] = []
    /// Everything read so far.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The writer closed its end.
    package private(set) var ended = false

    package init(_ pipe: Pipe) {
        fd = pipe.fileHandleForReading.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Reads until `condition(text)` holds, the writer closes, or `timeout` seconds pass; returns whether the
    /// condition held. `condition` is asked again at least every `interval` while no output arrives (a watcher
    /// that samples the file system between lines asks for a short one).
    @discardableResult
    package func read(
        timeout: Double, every interval: Duration = .seconds(1), until condition: (String) -> Bool
    ) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while !condition(text) {
            let left = deadline - ContinuousClock.now
            guard left > .zero, !ended else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left / .milliseconds(1), interval / .milliseconds(1)) + 1)
            guard poll(&descriptor, 1, milliseconds) > 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                bytes += buffer[..<n]
            } else if n == 0 {
                ended = true
            } else if errno != EAGAIN && errno != EINTR {
                ended = true
            }
        }
        return true
    }
}
