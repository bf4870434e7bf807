import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// The descriptor of a connection's TCP socket, for answers sent past NIO's write path (``PageFastPath``): a
/// remembered page's head with `MSG_MORE` and its bytes from the open file with `sendfile` — as nginx sends them
/// (`sendfile on`, `tcp_nopush`): the page is never copied into the process nor from it — or a head and a buffer
/// in one `writev`, without NIO's pending-write queue, promise or flush.
///
/// NIO does not expose a channel's descriptor. It is read from the channel's description (`SocketChannel {
/// BaseSocket { fd=N }, …`) and trusted only when that descriptor's local and peer addresses are the channel's
/// (`getsockname`, `getpeername`: no other socket of the process has both); otherwise (an embedded channel,
/// another NIO) there is none, and answers go through NIO as before. The caller uses it only on the channel's
/// event loop while the channel is active (NIO closes the descriptor on that loop, so it is still this channel's),
/// and only while none of NIO's writes is pending (``PageChannelHandler`` keeps the order).
struct ChannelSocket {
    let descriptor: Int32

    /// What a send did: every byte went out, or `sent` bytes did before the socket's buffer filled (`EAGAIN`), or
    /// the connection failed (or the file ended sooner) after `sent` bytes.
    enum Outcome: Equatable {
        case all
        case partial(sent: Int)
        case failed
    }

    /// The descriptor of `channel`'s socket, or nil when it cannot be told for sure.
    init?(_ channel: any Channel) {
        let prefix = "SocketChannel { BaseSocket { fd="
        let text = String(describing: channel)
        guard text.hasPrefix(prefix) else { return nil }
        let digits = text.utf8.dropFirst(prefix.utf8.count).prefix {
            $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")
        }
        guard let descriptor = Int32(Substring(digits)), descriptor >= 0,
            let local = channel.localAddress.flatMap(Endpoint.init),
            let remote = channel.remoteAddress.flatMap(Endpoint.init),
            Endpoint(descriptor, peer: false) == local, Endpoint(descriptor, peer: true) == remote
        else { return nil }
        self.descriptor = descriptor
    }

    /// `head` (held back with `MSG_MORE`), then the first `count` bytes of `file` with `sendfile`.
    func send(head: UnsafeRawBufferPointer, file: Int32, count: Int) -> Outcome {
        let flags = Int32(MSG_MORE) | Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        let sentHead = Self.repeating(until: head.count) { sent in
            Glibc.send(descriptor, head.baseAddress! + sent, head.count - sent, flags)
        }
        guard sentHead == .all else { return sentHead }
        var offset = off_t(0)  // 0 from sendfile: the file ended sooner (failed)
        return Self.repeating(until: head.count + count, from: head.count) { _ in
            sendfile(descriptor, file, &offset, count - Int(offset))
        }
    }

    /// `first` and `second` in one `writev` (as many as the socket takes).
    func send(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Outcome {
        Self.repeating(until: first.count + second.count) { sent in
            var parts = (iovec(), iovec())
            var count: Int32 = 1
            if sent < first.count {
                parts.0 = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: first.baseAddress! + sent),
                    iov_len: first.count - sent)
                parts.1 = iovec(iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress), iov_len: second.count)
                count = second.isEmpty ? 1 : 2
            } else {
                let at = sent - first.count
                parts.0 = iovec(
                    iov_base: UnsafeMutableRawPointer(mutating: second.baseAddress! + at),
                    iov_len: second.count - at)
            }
            return withUnsafePointer(to: &parts) {
                $0.withMemoryRebound(to: iovec.self, capacity: 2) { writev(descriptor, $0, count) }
            }
        }
    }

    /// Calls `write` with the bytes sent so far (from `start`) until `total` went out, again after `EINTR`: a
    /// partial outcome at `EAGAIN`, failed at another error or 0.
    private static func repeating(until total: Int, from start: Int = 0, _ write: (Int) -> Int) -> Outcome {
        var sent = start
        while sent < total {
            let n = write(sent)
            if n > 0 {
                sent += n
            } else if n < 0, errno == EINTR {
                continue
            } else {
                return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? .partial(sent: sent) : .failed
            }
        }
        return .all
    }

    /// A socket address's family, port and address bytes.
    private struct Endpoint: Equatable {
        let family: Int32
        let port: UInt16
        let address: [UInt8]

        init?(_ address: SocketAddress) {
            switch address {
            case .v4(let v4):
                self.init(v4.address)
            case .v6(let v6):
                self.init(v6.address)
            case .unixDomainSocket:
                return nil
            }
        }

        init(_ address: sockaddr_in) {
            family = AF_INET
            port = address.sin_port
            self.address = withUnsafeBytes(of: address.sin_addr) { Array($0) }
        }

        init(_ address: sockaddr_in6) {
            family = AF_INET6
            port = address.sin6_port
            self.address = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
        }

        /// The local (or `peer`) address of socket `descriptor`.
        init?(_ descriptor: Int32, peer: Bool) {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let status = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
                }
            }
            guard status == 0 else { return nil }
            switch Int32(storage.ss_family) {
            case AF_INET: self.init(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) })
            case AF_INET6: self.init(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) })
            default: return nil
            }
        }
    }
}
