/// Where `docsync serve` listens: `HOST:PORT`, or `[IPV6]:PORT`. A pure value with its parsing and the loopback
/// rule (a non-loopback address must be asked for explicitly).
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// The host or address, without brackets.
    package var host: String
    /// The TCP port; 0 picks a free one (tests).
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` / `[V6]:PORT`; nil when malformed.
    package init?(_ text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return nil }  // IPv6 needs brackets
        }
        guard !host.isEmpty, host.utf8.count <= 253,
            host.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0 != "/" }),
            portText.count <= 5, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65_535).contains(port)
        else { return nil }
        self.host = String(host)
        self.port = port
    }

    /// True for 127.0.0.0/8, `::1` and `localhost`.
    package var isLoopback: Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
