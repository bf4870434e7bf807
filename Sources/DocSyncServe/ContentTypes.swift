import HTTPTypes

/// `Content-Type` by file extension, for pages and their assets (a pure table; unknown: octet-stream, which with
/// `nosniff` a browser downloads rather than runs).
package enum ContentTypes {
    static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "xhtml": "application/xhtml+xml",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript",
        "json": "application/json", "txt": "text/plain; charset=utf-8", "md": "text/plain; charset=utf-8",
        "xml": "application/xml", "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg",
        "jpeg": "image/jpeg", "gif": "image/gif", "webp": "image/webp", "ico": "image/x-icon", "bmp": "image/bmp",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "eot": "application/vnd.ms-fontobject", "pdf": "application/pdf", "map": "application/json",
        "wasm": "application/wasm", "mp4": "video/mp4", "webm": "video/webm", "csv": "text/csv; charset=utf-8",
    ]

    static let unknown = "application/octet-stream"

    /// The same table as ready header fields (built once: a page's answer looks its type up, nothing more).
    static let fields: [String: HTTPField] = byExtension.mapValues { HTTPField(name: .contentType, value: $0) }
    static let unknownField = HTTPField(name: .contentType, value: unknown)

    /// The type for a page path (its last extension, ignoring case).
    package static func of(_ page: String) -> String {
        guard let suffix = suffix(page) else { return unknown }
        return byExtension[suffix] ?? unknown
    }

    /// ``of(_:)`` as a `Content-Type` header field.
    static func field(of page: String) -> HTTPField {
        guard let suffix = suffix(page) else { return unknownField }
        return fields[suffix] ?? unknownField
    }

    /// The last component's extension, lowercased; nil when it has none (one scan of the bytes from the end).
    static func suffix(_ page: String) -> String? {
        let bytes = page.utf8
        var index = bytes.endIndex
        while index > bytes.startIndex {
            let previous = bytes.index(before: index)
            switch bytes[previous] {
            case UInt8(ascii: "/"): return nil
            case UInt8(ascii: "."):
                let suffix = Substring(page.utf8[index...])
                return suffix.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
                    ? suffix.lowercased() : String(suffix)
            default: index = previous
            }
        }
        return nil
    }
}
