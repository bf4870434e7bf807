import DocSync
import DocSyncSupport
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// `/d/<Name>/<page>` and `/d/<Name>@<ID>/<page>`.
///
/// A docset installed by docsync answers the unpinned URL with a redirect to the version installed now
/// (`/d/<Name>@<ID>/…`, never cached), so relative links keep a reader on one version however many syncs run; a
/// pinned URL serves its version while the version folder exists (`install.grace_period`, or while leased), then
/// redirects back to the unpinned URL, hence to the new version. Pinned answers carry `ETag: "<Name@ID>/<page>"`
/// (a version's files never change); a docset installed by something else is served in place, tagged by content.
///
/// Isolation: every page is sent with `Content-Security-Policy: sandbox allow-scripts allow-popups …` without
/// `allow-same-origin`, so its scripts run at an opaque origin: they cannot read the API's answers, the search
/// page's DOM, or anything else of this origin, even when the page is opened directly.
extension Routes {
    func pages(_ raw: Substring, request: Request) async -> Response {
        guard let path = PagePath(afterPrefix: raw) else {
            // `/d/Name` without its slash: relative links need the folder form.
            if !raw.isEmpty, !raw.contains("/"), PagePath(afterPrefix: raw + "/") != nil {
                return Self.redirect(to: "/d/\(raw)/", permanent: true)
            }
            return Self.notFound()
        }
        let snapshot = docsets.snapshot()
        let docset: InstalledDocset
        var tag: String
        if let version = path.version {
            let root = configuredRoot
            let folder = "\(root)/.docsync/versions/\(version)"
            guard Self.isDirectory(folder) else {
                // Pruned (or never was): the same page of what is installed now.
                return Self.redirect(to: "/d/\(Self.encodeSegment(path.name))/\(path.encodedPage)", permanent: false)
            }
            docset = InstalledDocset(name: path.name, path: folder)
            tag = "\(version)/\(path.page)"
        } else {
            guard let current = snapshot.docset(path.name) else { return Self.notFound() }
            if let version = Self.versionSegment(current) {
                return Self.redirect(to: "/d/\(Self.encodeSegment(version))/\(path.encodedPage)", permanent: false)
            }
            docset = current
            tag = ""
        }
        let page = path.page
        let read = await reads.run { Result { () throws(DocumentError) in try docset.contentsBlocking(of: page) } }
        guard let read else { return Self.busy() }
        let bytes: [UInt8]
        do {
            bytes = try read.get()
        } catch {
            if error == DocumentError.tooLarge {
                return Self.text(.contentTooLarge, "page larger than the server's limit\n")
            }
            if error == DocumentError.io { logger.warning("\(error.description)") }
            return Self.notFound()
        }
        if tag.isEmpty { tag = "\(docset.name)/\(path.page)#\(Self.fnv1a(bytes))" }
        let etag = "\"" + Self.etagText(tag) + "\""
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] =
            path.version == nil
            ? "no-cache" : "public, max-age=\(settings.cacheMaxAge.components.seconds)"
        headers[.acceptRanges] = "bytes"
        headers[.contentSecurityPolicy] =
            "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms; frame-ancestors 'self'"
        headers[.init("Referrer-Policy")!] = "no-referrer"
        if let match = request.headers[.ifNoneMatch], Self.matches(match, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = ContentTypes.of(path.page)
        var range = ByteRange.resolve(request.headers[.range], length: bytes.count)
        if let ifRange = request.headers[.ifRange], ifRange != etag { range = .whole }
        switch range {
        case .whole:
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .part(let part):
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(bytes.count)"
            return Response(
                status: .partialContent, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes[part])))
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(bytes.count)"
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
    }

    var configuredRoot: String { docsets.root }

    static func redirect(to location: String, permanent: Bool) -> Response {
        var response = Response(status: permanent ? .movedPermanently : .found)
        response.headers[.location] = location
        response.headers[.cacheControl] = "no-store"
        return response
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// `If-None-Match`: `*` or a list containing `etag` (weak comparison).
    static func matches(_ header: String, etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var value = candidate.trimmingCharacters(in: " ")
            if value == "*" { return true }
            if value.hasPrefix("W/") { value = String(value.dropFirst(2)) }
            return value == etag
        }
    }

    /// An entity tag's text: printable ASCII but `"` and `\`, others percent-escaped.
    static func etagText(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7f, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\"),
                byte != UInt8(ascii: "%")
            {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// FNV-1a 64, hex: the content tag of a page in a docset installed by something else.
    static func fnv1a(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var text = self
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
