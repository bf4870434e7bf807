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

    /// The type for a page path (its last extension, ignoring case).
    package static func of(_ page: String) -> String {
        let last = page.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return "application/octet-stream" }
        return byExtension[last[last.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}
