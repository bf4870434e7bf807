import DocSyncSupport

/// Pure helpers around RFC 3986 reference resolution (the merge itself is libxml2's `xmlBuildURI`).
enum URIReference {
    /// Applies RFC 3986 §5.2.4 `remove_dot_segments` to the path of an absolute URI. `xmlBuildURI` keeps dot
    /// segments that follow an absolute path (`/./g`, `/../g`), which RFC 3986 removes.
    static func removingDotSegments(_ uri: String) -> String {
        let bytes = Array(uri.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[..<colon].allSatisfy({ isSchemeByte($0) }), colon > 0
        else { return uri }
        var pathStart = colon + 1
        if bytes[pathStart...].starts(with: Array("//".utf8)) {
            pathStart += 2
            while pathStart < bytes.count, !"/?#".utf8.contains(bytes[pathStart]) { pathStart += 1 }
        }
        var pathEnd = pathStart
        while pathEnd < bytes.count, !"?#".utf8.contains(bytes[pathEnd]) { pathEnd += 1 }
        let path = String(decoding: bytes[pathStart..<pathEnd], as: UTF8.self)
        guard path.hasPrefix("/"), path.contains("/.") else { return uri }
        return String(decoding: bytes[..<pathStart], as: UTF8.self) + removeDotSegments(path)
            + String(decoding: bytes[pathEnd...], as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 on one path.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []  // each segment keeps its leading "/"
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }

    /// Percent-encodes every byte a URI may not contain (spaces, non-ASCII, `"<>\^`{|}`), keeping existing escapes.
    static func escapingInvalidCharacters(_ reference: String) -> String {
        PercentEncoding.encoded(reference.utf8, keeping: isURIByte)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    private static func isURIByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default: "-._~:/?#[]@!$&'()*+,;=%".utf8.contains(byte)
        }
    }
}
