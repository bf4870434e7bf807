import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately dumb HTTP/1.1 client over a plain socket, on a thread of its own: it sends the request target
/// byte for byte (no normalising of `..`, `%2e`, NUL), so traversal attempts reach the server as written.
struct RawHTTP: Sendable {
    struct Reply: Sendable {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    struct Failure: Error, CustomStringConvertible { var description: String }

    let port: Int

    /// `GET target` (or `method`) with extra header lines; reads until the server closes (`Connection: close`).
    func get(_ target: String, headers: [String: String] = [:], method: String = "GET") async throws -> Reply {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        let port = self.port
        let result: Result<[UInt8], Failure> = await WorkerThread.run(name: "raw-http") {
            Result { () throws(Failure) in
                let connection = try Connection(port: port)
                defer { connection.close() }
                try connection.send(bytes)
                return try connection.readAll()
            }
        }
        return try Self.parse(try result.get(), head: method == "HEAD")
    }

    /// One connection, for reading a response in stages.
    final class Connection: @unchecked Sendable {
        let fd: Int32

        init(port: Int) throws(Failure) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                Glibc.close(fd)
                throw Failure(description: "connect to port \(port): errno \(errno)")
            }
        }

        func send(_ bytes: [UInt8]) throws(Failure) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { throw Failure(description: "send: errno \(errno)") }
                offset += sent
            }
        }

        /// Up to `count` bytes (fewer at the end of the stream).
        func read(_ count: Int) throws(Failure) -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            while out.count < count {
                let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, min($0.count, count - out.count)) }
                if got < 0 && errno == EINTR { continue }
                guard got >= 0 else { throw Failure(description: "read: errno \(errno)") }
                if got == 0 { break }
                out += buffer[0..<got]
            }
            return out
        }

        func readAll() throws(Failure) -> [UInt8] { try read(Int.max) }

        /// `read` on a thread of its own (never blocking the cooperative pool the server runs on).
        func reading(_ count: Int) async throws -> [UInt8] {
            let result: Result<[UInt8], Failure> = await WorkerThread.run(name: "raw-http-read") {
                Result { () throws(Failure) in try self.read(count) }
            }
            return try result.get()
        }

        func close() { Glibc.close(fd) }
    }

    static func parse(_ bytes: [UInt8], head: Bool = false) throws -> Reply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw Failure(description: "no response head in \(bytes.count) bytes")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "bad status line \(lines[0])")
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(bytes[(end + 4)...])
        let chunked = headers.contains { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased() == "chunked" }
        if chunked && !head { body = try dechunk(body) }
        return Reply(status: status, headers: headers, body: body)
    }

    static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].indices.first(where: { bytes[$0] == 13 }) else { break }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw Failure(description: "bad chunk size") }
            if size == 0 { break }
            let start = lineEnd + 2
            out += bytes[start..<(start + size)]
            index = start + size + 2
        }
        return out
    }
}
