import DocSync
import DocSyncSupport
import HTTPTypes
import Hummingbird
import Logging
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
    func pages(_ raw: Substring, request: Request, timeout: Duration) async -> Response {
        guard let path = PagePath(afterPrefix: raw) else {
            // `/d/Name` without its slash: relative links need the folder form.
            if !raw.isEmpty, !raw.contains("/"), PagePath(afterPrefix: raw + "/") != nil {
                return Self.redirect(to: "/d/\(raw)/", permanent: true)
            }
            return Self.notFound()
        }
        let docset: InstalledDocset
        let tag: String
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
            guard let current = docsets.snapshot().docset(path.name) else { return Self.notFound() }
            if let version = Self.versionSegment(current) {
                return Self.redirect(to: "/d/\(Self.encodeSegment(version))/\(path.encodedPage)", permanent: false)
            }
            docset = current
            tag = ""
        }
        let page = path.page
        let pinned = path.version != nil
        let conditions = PageConditions(request.headers)
        let body: ByteBuffer
        let reader = self.reader
        if pinned, let kept = cache.get(tag) {
            body = ByteBuffer(bytes: kept)  // a tarix page inflated before
        } else {
            // A warm page of a kept, extracted version folder is opened and read here, without waiting for the
            // disk (RESOLVE_CACHED, RWF_NOWAIT); anything else, or what that could not finish, on the read pool.
            var started: (descriptor: Int32, size: Int, buffer: ByteBuffer)?
            if pinned {
                do {
                    switch try reader.openIfCached(page, of: docset, as: InflatedBuffer.self) {
                    case .file(let descriptor, let size)?:
                        var buffer = ByteBufferAllocator().buffer(capacity: size)
                        if Self.fill(&buffer, from: descriptor, size: size, waiting: false) == 0 {
                            close(descriptor)
                            return respond(buffer, tag: tag, path: path, docset: docset, conditions: conditions)
                                .response
                        }
                        started = (descriptor, size, buffer)
                    case .bytes(let inflated)?:  // a small tarix page, its compressed bytes in the page cache
                        cache.put(tag, inflated.buffer)
                        return respond(inflated.buffer, tag: tag, path: path, docset: docset, conditions: conditions)
                            .response
                    case nil: break
                    }
                } catch {
                    return Self.pageError(error, logger: logger)
                }
            }
            let handoff = started
            let read = await reads.run(before: ContinuousClock.now + timeout) {
                Result { () throws(DocumentError) -> (ByteBuffer, inflated: Bool) in
                    if let handoff {
                        defer { close(handoff.descriptor) }
                        var buffer = handoff.buffer
                        let failure = Self.fill(&buffer, from: handoff.descriptor, size: handoff.size, waiting: true)
                        if failure != 0 { throw Self.readError(failure, docset: docset, page: page) }
                        return (buffer, false)
                    }
                    let contents = try reader.open(page, of: docset, immutable: pinned, as: InflatedBuffer.self)
                    return try Self.load(contents, docset: docset, page: page)
                }
            }
            switch read {
            case .failure(let refusal):
                if let handoff { close(handoff.descriptor) }  // the job never ran
                return refusal == .timedOut ? Self.text(.serviceUnavailable, "timed out\n") : Self.busy()
            case .success(.failure(let error)):
                return Self.pageError(error, logger: logger)
            case .success(.success(let (bytes, inflated))):
                body = bytes
                if pinned, inflated { cache.put(tag, bytes) }
            }
        }
        return respond(body, tag: tag, path: path, docset: docset, conditions: conditions).response
    }

    /// The answer to `GET`/`HEAD /d/<Name>@<ID>/<page>` (the part after `/d/`) when it needs no waiting: a page
    /// kept in the ``PageCache``, a page of a kept, extracted version folder whose path and bytes the kernel has
    /// cached (`RESOLVE_CACHED`, `RWF_NOWAIT`), or a small tarix page whose compressed bytes it has cached (inflated
    /// here) — the same checks and answers as ``pages(_:request:timeout:)``.
    /// Nil for anything else (not pinned, a version gone, a page to read from the disk or inflate, any error):
    /// the async route answers those. For the event-loop fast path (``PageChannelHandler``): never blocks.
    func warmPage(_ raw: Substring, headers: HTTPFields) -> PageAnswer? {
        warmPage(raw, conditions: PageConditions(headers))
    }

    /// ``warmPage(_:headers:)`` with the request's conditional and range fields already picked out (the fast path
    /// reads them from NIO's HTTP/1 head, without converting it to `HTTPFields`).
    func warmPage(_ raw: Substring, conditions: PageConditions) -> PageAnswer? {
        warmRead(raw, conditions: conditions)?.answer
    }

    /// Where a warm page's bytes came from (``warmRead(_:conditions:)``).
    enum WarmSource {
        /// Read from its file in an extracted version folder.
        case file
        /// Taken from the ``PageCache`` (a tarix page inflated before).
        case cached
        /// Inflated from a tarix store just now.
        case inflated
    }

    /// ``warmPage(_:conditions:)``, and where the page's bytes came from (``PageHeads`` remembers the page from
    /// any of them).
    func warmRead(_ raw: Substring, conditions: PageConditions) -> (answer: PageAnswer, source: WarmSource)? {
        guard let path = PagePath(afterPrefix: raw), let version = path.version else { return nil }
        let folder = "\(configuredRoot)/.docsync/versions/\(version)"
        guard Self.isDirectory(folder) else { return nil }
        let docset = InstalledDocset(name: path.name, path: folder)
        let tag = "\(version)/\(path.page)"
        if let kept = cache.get(tag) {
            let body = ByteBuffer(bytes: kept)
            return (respond(body, tag: tag, path: path, docset: docset, conditions: conditions), .cached)
        }
        switch try? reader.openIfCached(path.page, of: docset, as: InflatedBuffer.self) {
        case .file(let descriptor, let size)?:
            defer { close(descriptor) }
            var buffer = ByteBufferAllocator().buffer(capacity: size)
            guard Self.fill(&buffer, from: descriptor, size: size, waiting: false) == 0 else { return nil }
            return (respond(buffer, tag: tag, path: path, docset: docset, conditions: conditions), .file)
        case .bytes(let inflated)?:  // a small tarix page, its compressed bytes in the page cache
            cache.put(tag, inflated.buffer)
            return (respond(inflated.buffer, tag: tag, path: path, docset: docset, conditions: conditions), .inflated)
        default:
            return nil
        }
    }

    /// What ``PageHeads`` keeps of a pinned page (`raw`: the part after `/d/`): its version folder's path, its file
    /// beneath the folder (`Contents/Resources/Documents/<page>`), its ``PageCache`` key, the page and its docset
    /// (to inflate a tarix page again), and its whole answer's
    /// status and headers (the body left empty). Nil for anything else: not pinned, a page path that is not
    /// canonical (the full route decides those every time). Touches no file.
    func warmHead(_ raw: Substring)
        -> (folder: String, file: String, tag: String, page: String, docset: InstalledDocset, answer: PageAnswer)?
    {
        guard let path = PagePath(afterPrefix: raw), let version = path.version, ContainedFile.isCanonical(path.page)
        else { return nil }
        let folder = "\(configuredRoot)/.docsync/versions/\(version)"
        let docset = InstalledDocset(name: path.name, path: folder)
        let tag = "\(version)/\(path.page)"
        let answer = respond(ByteBuffer(), tag: tag, path: path, docset: docset, conditions: PageConditions())
        guard answer.status == .ok else { return nil }
        return (folder, "Contents/Resources/Documents/\(path.page)", tag, path.page, docset, answer)
    }

    /// The answer for a page read that failed: 413 for one over the limit, else 404 (I/O errors logged).
    static func pageError(_ error: DocumentError, logger: Logger) -> Response {
        if error == DocumentError.tooLarge { return text(.contentTooLarge, "page larger than the server's limit\n") }
        if error == DocumentError.io { logger.warning("\(error.description)") }
        return notFound()
    }

    /// The headers every page answer carries (built once: no parsing or validation per request).
    static let acceptRanges = HTTPField(name: .acceptRanges, value: "bytes")
    static let sandbox = HTTPField(
        name: .contentSecurityPolicy,
        value: "sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox allow-forms; frame-ancestors 'self'")
    static let noReferrer = HTTPField(name: HTTPField.Name("Referrer-Policy")!, value: "no-referrer")
    static let revalidate = HTTPField(name: .cacheControl, value: "no-cache")

    /// A page's answer: its headers, then 304, the whole page, a range, or 416.
    func respond(
        _ body: ByteBuffer, tag: String, path: PagePath, docset: InstalledDocset, conditions request: PageConditions
    ) -> PageAnswer {
        var tag = tag
        if tag.isEmpty { tag = "\(docset.name)/\(path.page)#\(Self.fnv1a(body))" }
        let etag = "\"" + Self.etagText(tag) + "\""
        var headers = HTTPFields()
        headers.reserveCapacity(12)
        headers.append(HTTPField(name: .eTag, value: etag))
        headers.append(path.version == nil ? Self.revalidate : pinnedCacheControl)
        headers.append(Self.acceptRanges)
        headers.append(Self.sandbox)
        headers.append(Self.noReferrer)
        if let match = request.ifNoneMatch, Self.matches(match, etag: etag) {
            return PageAnswer(status: .notModified, headers: headers, body: nil)
        }
        let length = body.readableBytes
        let rangeHeader = request.range
        var range = rangeHeader == nil ? .whole : ByteRange.resolve(rangeHeader, length: length)
        if range != .whole, let ifRange = request.ifRange, ifRange != etag { range = .whole }
        switch range {
        case .whole:
            headers.append(ContentTypes.field(of: path.page))
            return PageAnswer(status: .ok, headers: headers, body: body)
        case .part(let part):
            headers.append(ContentTypes.field(of: path.page))
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound - 1)/\(length)"
            let slice = body.getSlice(at: body.readerIndex + part.lowerBound, length: part.count) ?? ByteBuffer()
            return PageAnswer(status: .partialContent, headers: headers, body: slice)
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(length)"
            headers[.contentType] = "text/plain; charset=utf-8"
            return PageAnswer(status: .rangeNotSatisfiable, headers: headers, body: nil)
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
        let keep = { (byte: UInt8) in
            byte > 0x20 && byte < 0x7f && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != UInt8(ascii: "%")
        }
        if text.utf8.allSatisfy(keep) { return text }
        // Two hex digits for every escaped byte, so that no two tags can be written alike (`%A` + `B` vs `%AB`).
        return PercentEncoding.encoded(text.utf8, keeping: keep)
    }

    /// FNV-1a 64, hex: the content tag of a page in a docset installed by something else.
    static func fnv1a(_ buffer: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        buffer.withUnsafeReadableBytes { bytes in
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        return String(hash, radix: 16)
    }

    /// Reads the rest of a file of `size` bytes (from `buffer.writerIndex` on) straight into `buffer`: 0 when
    /// the buffer holds them all (or the file ended sooner: it shrank meanwhile), else the `errno` that stopped
    /// it. Without `waiting`, only what the page cache holds now (`RWF_NOWAIT`): `EAGAIN` when more is needed.
    static func fill(_ buffer: inout ByteBuffer, from descriptor: Int32, size: Int, waiting: Bool) -> Int32 {
        var failure: Int32 = 0
        var done = buffer.writerIndex
        while done < size, failure == 0 {
            let wanted = size - done
            let at = done
            _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { target in
                let n =
                    waiting
                    ? pread(descriptor, target.baseAddress!, wanted, off_t(at))
                    : ContainedFile.readCached(
                        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: target[..<wanted]), at: at)
                if n < 0 {
                    failure = errno == EINTR ? 0 : errno
                    return 0
                }
                if n == 0 { failure = -1 }  // the end: it shrank meanwhile
                return n
            }
            done = buffer.writerIndex
        }
        return failure == -1 ? 0 : failure
    }

    static func readError(_ code: Int32, docset: InstalledDocset, page: String) -> DocumentError {
        DocumentError.make(
            .io, docset: docset.name, page: String(page.escapingControlCharacters.prefix(300)),
            message: "read: \(String(cString: strerror(code)))")
    }

    /// A page's bytes in a buffer of their own (blocking: on the read pool), and whether they were inflated from
    /// a tarix store (kept in the ``PageCache``). An extracted page is read straight from its descriptor into the
    /// buffer, at most the size it had when opened.
    static func load(_ contents: PageContents<InflatedBuffer>, docset: InstalledDocset, page: String)
        throws(DocumentError) -> (ByteBuffer, inflated: Bool)
    {
        switch contents {
        case .bytes(let inflated):
            return (inflated.buffer, true)
        case .file(let descriptor, let size):
            defer { close(descriptor) }
            var buffer = ByteBufferAllocator().buffer(capacity: size)
            let failure = fill(&buffer, from: descriptor, size: size, waiting: true)
            if failure != 0 { throw readError(failure, docset: docset, page: page) }
            return (buffer, false)
        }
    }
}

/// A tarix page inflated straight into the response's buffer (no array, no copy in between).
struct InflatedBuffer: InflatedPage {
    let buffer: ByteBuffer

    static func inflated(size: Int, fill: (UnsafeMutableRawBufferPointer) -> Bool) -> InflatedBuffer? {
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        var ok = false
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: size) { target in
            ok = fill(UnsafeMutableRawBufferPointer(rebasing: target[..<size]))
            return ok ? size : 0
        }
        return ok ? InflatedBuffer(buffer: buffer) : nil
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
