/// An IPv4 or IPv6 address as a connection uses it (network-order bytes), with its port.
package struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6).
    package var bytes: [UInt8]
    package var port: Int

    package init(bytes: [UInt8], port: Int = 0) {
        precondition(bytes.count == 4 || bytes.count == 16, "an IP address has 4 or 16 bytes")
        self.bytes = bytes
        self.port = port
    }

    /// Dotted IPv4 (`10.0.0.1`) or IPv6 text (`::1`, `fe80::1`, full or `::`-compressed; no zone). Nil otherwise.
    package init?(_ text: String, port: Int = 0) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            self.init(bytes: v4, port: port)
        } else if let v6 = Self.parseIPv6(text) {
            self.init(bytes: v6, port: port)
        } else {
            return nil
        }
    }

    /// The embedded IPv4 address of an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`), else self.
    package var unmapped: IPAddress {
        guard bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return self }
        return IPAddress(bytes: Array(bytes[12...]), port: port)
    }

    package var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":")
    }

    private static func parseIPv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let value = UInt8(part)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    private static func parseIPv6(_ text: String) -> [UInt8]? {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt8]? {
            guard !part.isEmpty else { return [] }
            var bytes: [UInt8] = []
            let fields = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, field) in fields.enumerated() {
                if index == fields.count - 1, field.contains("."), let v4 = parseIPv4(field) {
                    bytes += v4
                    continue
                }
                guard (1...4).contains(field.count), let value = UInt16(field, radix: 16) else { return nil }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return bytes
        }
        guard let head = groups(halves[0]) else { return nil }
        if halves.count == 1 { return head.count == 16 ? head : nil }
        guard let tail = groups(halves[1]), head.count + tail.count <= 14 else { return nil }
        return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
    }
}
