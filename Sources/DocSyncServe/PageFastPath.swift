import DocSync
import DocSyncSupport
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the server does for a request it can answer on the event loop, without a task: a warm page
/// (``Routes/warmPage(_:conditions:)``) with every header the async route would send (`X-Content-Type-Options`,
/// `Date`, `Server`, `Content-Length`), counted and logged the same way. Anything else is the async route's.
///
/// It reads NIO's HTTP/1 request head as the decoder made it (no conversion to `HTTPRequest`, no `URLComponents`)
/// and renders the answer's head as bytes, ready for the socket: status line and fields in one buffer. A plain `GET`
/// (no query, no conditional or range field) of a page answered here before from a file of an extracted version
/// folder or from a tarix store (the page cache's bytes, or inflated just now) is answered from what
/// ``PageHeads`` remembers of it (no parsing, no header building): an extracted page's bytes are read from its
/// open file straight after the head, in one buffer, or, sent on the connection's own socket
/// (``send(_:on:allocator:remote:)``), go out from the file with `sendfile`; a tarix page's go out from the page
/// cache's array after the head in one `writev`.
final class PageFastPath: Sendable {
    let routes: Routes
    let log: AccessLog?
    let counters: ServeCounters
    let date = DateHeader()
    let heads: PageHeads

    /// `<root>/.docsync/versions`, and its descriptor (opened when the first page is remembered; -1
    /// before): a remembered page's version folder is checked with one `fstatat` of its name there, not a walk
    /// of its whole path. Exact all the same: a pruned version's name leaves that folder when it is moved out.
    let versions: String
    private let versionsDescriptor = Atomic<Int32>(-1)

    init(routes: Routes, log: AccessLog?, counters: ServeCounters, heads: PageHeads = PageHeads()) {
        self.routes = routes
        self.log = log
        self.counters = counters
        self.heads = heads
        versions = "\(routes.configuredRoot)/.docsync/versions"
    }

    deinit {
        let descriptor = versionsDescriptor.load(ordering: .acquiring)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Whether a remembered page's version folder is still there (a directory, not a link).
    func folderExists(_ entry: PageHeads.Entry) -> Bool {
        let descriptor = versionsDescriptor.load(ordering: .acquiring)
        guard let name = entry.name, descriptor >= 0 else { return Routes.isDirectory(entry.folder) }
        var status = stat()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    /// The name of `folder` in ``versions`` when it is directly there and that folder can be opened (its
    /// descriptor kept from then on); nil otherwise.
    private func nameInVersions(_ folder: String) -> String? {
        let prefix = versions + "/"
        guard folder.hasPrefix(prefix) else { return nil }
        let name = String(folder.dropFirst(prefix.count))
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
        if versionsDescriptor.load(ordering: .acquiring) >= 0 { return name }
        let opened = open(versions, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        let (exchanged, _) = versionsDescriptor.compareExchange(
            expected: -1, desired: opened, ordering: .acquiringAndReleasing)
        if !exchanged { close(opened) }
        return name
    }

    /// The answer's head (status line and fields, up to the blank line) and body (nil for HEAD and bodiless
    /// answers), or nil when the async route must answer: only `GET`/`HEAD` of HTTP/1.1 under `/d/`.
    func answer(_ request: HTTPRequestHead, allocator: ByteBufferAllocator, remote: () -> String)
        -> (head: ByteBuffer, body: ByteBuffer?)?
    {
        let head = request.method == .HEAD
        guard request.method == .GET || head, request.version == .http1_1, request.uri.utf8.starts(with: "/d/".utf8)
        else { return nil }
        return answer(
            request.uri, head: head, conditions: PageConditions(request.headers), allocator: allocator, remote: remote)
    }

    /// The answer to `GET` (`HEAD` when `head`) of `target` with `conditions`, or nil when the async route must
    /// answer: the same as for a decoded head. ``PageFront`` calls it for a plain `GET` read before the decoder.
    func answer(
        _ target: String, head: Bool, conditions: PageConditions, allocator: ByteBufferAllocator,
        remote: () -> String
    ) -> (head: ByteBuffer, body: ByteBuffer?)? {
        let utf8 = target.utf8
        guard utf8.count <= Routes.maximumTargetBytes, utf8.starts(with: "/d/".utf8) else { return nil }
        let start = ContinuousClock.now
        // The path is the target up to its query, as the async route's `request.uri.path` reads it.
        let query =
            utf8.withContiguousStorageIfAvailable { $0.firstIndex(of: UInt8(ascii: "?")) }
            ?? utf8.firstIndex(of: UInt8(ascii: "?")).map { utf8.distance(from: utf8.startIndex, to: $0) }
        let end = query.map { utf8.index(utf8.startIndex, offsetBy: $0) } ?? utf8.endIndex
        let plain = !head && end == utf8.endIndex && conditions == PageConditions()
        if plain, let answer = self.plain(target, allocator: allocator, remote: remote, start: start) {
            return answer
        }
        let raw = Substring(utf8[utf8.index(utf8.startIndex, offsetBy: 3)..<end])
        guard let (answer, source) = routes.warmRead(raw, conditions: conditions) else { return nil }
        if plain, answer.status.code == 200 {
            remember(target, raw, file: source == .file, allocator: allocator)
        }
        let length = answer.contentLength
        let method: HTTPRequest.Method = head ? .head : .get
        log?.record(method: method, target: target, remote: remote(), status: answer.status.code, bytes: length)
        counters.record(.pages, status: answer.status.code, duration: ContinuousClock.now - start)
        return (render(answer, length: length, allocator: allocator), head ? nil : answer.body)
    }

    /// The answer to a plain `GET` of `target` (no query, no conditional or range field) when ``heads`` remembers
    /// it (``known(_:target:allocator:)``), counted and logged; nil for the full route.
    private func plain(
        _ target: String, allocator: ByteBufferAllocator, remote: () -> String, start: ContinuousClock.Instant
    ) -> (head: ByteBuffer, body: ByteBuffer?)? {
        guard let entry = heads.get(target), let whole = known(entry, target: target, allocator: allocator) else {
            return nil
        }
        log?.record(method: .get, target: target, remote: remote(), status: 200, bytes: whole.length)
        counters.record(.pages, status: 200, duration: ContinuousClock.now - start)
        return (whole.answer, nil)
    }

    /// Remembers the page of `target` (``PageHeads``) after the full route answered it from a `file` of a kept,
    /// extracted version folder (opened again beneath the folder, with the same checks) or from a tarix store (by
    /// its page cache key: a page not kept there is inflated again when asked, as an evicted one is).
    private func remember(_ target: String, _ raw: Substring, file: Bool, allocator: ByteBufferAllocator) {
        guard let made = routes.warmHead(raw) else { return }
        let body: PageHeads.Body
        if file {
            guard let folder = routes.reader.keptExtractedFolder(made.folder),
                let (descriptor, size) = try? ContainedFile.openForReading(
                    made.file, below: folder.descriptor, limit: max(0, routes.reader.maximumBytes), cachedOnly: true)
            else { return }
            // No access-time update per read (the kernel's `touch_atime` on every `pread`); refused (EPERM) for a
            // file of another owner, which then reads as before.
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | Self.noAccessTime) }
            body = .file(PageHeads.OpenFile(descriptor: descriptor, size: size))
        } else {
            body = .cached(made.tag, page: made.page, docset: made.docset)
        }
        var fields = renderFields(made.answer, allocator: allocator)
        var head = allocator.buffer(capacity: fields.readableBytes)
        head.writeBuffer(&fields)
        heads.put(
            target, PageHeads.Entry(folder: made.folder, name: nameInVersions(made.folder), body: body, head: head))
    }

    /// The whole answer to a plain `GET` of a page ``heads`` remembers, in one buffer — the kept head,
    /// `Content-Length` and the per-answer fields, then the page: read from its open file, or copied from the page
    /// cache — and the page's length; nil when the full route must answer: the version folder is gone (pruned: its
    /// entries are dropped, the async route redirects), the bytes cannot be read without waiting (`RWF_NOWAIT`),
    /// the file is shorter now, or the tarix page, evicted from the page cache, cannot be inflated without waiting.
    func known(_ entry: PageHeads.Entry, target: String, allocator: ByteBufferAllocator)
        -> (answer: ByteBuffer, length: Int)?
    {
        guard folderExists(entry) else {
            heads.removeFolder(entry.folder)
            return nil
        }
        switch entry.body {
        case .cached(let key, let page, let docset):
            guard let bytes = cachedBytes(key, page: page, of: docset) else { return nil }
            var out = allocator.buffer(capacity: entry.head.readableBytes + 160 + bytes.count)
            out.writeImmutableBuffer(entry.head)
            writeTrailer(&out, length: bytes.count)
            out.writeBytes(bytes)
            return (out, bytes.count)
        case .file(let file):
            guard let out = read(file, after: entry.head, allocator: allocator) else { return nil }
            return (out, file.size)
        }
    }

    /// The bytes of a remembered tarix page: the page cache's, or, evicted, inflated again (into an array of its
    /// length, which the cache keeps as it is) and offered to the cache, as the full route does (its head is the
    /// remembered one); nil when that would wait.
    private func cachedBytes(_ key: String, page: String, of docset: InstalledDocset) -> [UInt8]? {
        if let kept = routes.cache.get(key) { return kept }
        guard case .bytes(let inflated)? = try? routes.reader.openIfCached(page, of: docset, as: [UInt8].self)
        else { return nil }
        routes.cache.put(key, bytes: inflated)
        return inflated
    }

    /// What ``send(_:on:allocator:remote:)`` did with an answer.
    enum Sending {
        /// All of it is on its way.
        case sent
        /// The socket's buffer filled: these bytes, the rest of the answer, go after it through NIO.
        case rest(ByteBuffer)
        /// The connection failed, or the file ended sooner than its head said, after part of the answer went out:
        /// the connection must close.
        case broken
    }

    /// What is left of an answer of `head` and `body` after `outcome`, their `writev`: the rest of both, copied into
    /// one buffer for NIO.
    private static func sending(
        _ outcome: ChannelSocket.Outcome, head: ByteBuffer, body: UnsafeRawBufferPointer, allocator: ByteBufferAllocator
    ) -> Sending {
        switch outcome {
        case .all: return .sent
        case .failed: return .broken
        case .partial(let sent):
            var rest = allocator.buffer(capacity: head.readableBytes + body.count - sent)
            rest.writeImmutableBuffer(head)
            rest.writeBytes(body)
            rest.moveReaderIndex(forwardBy: sent)
            return .rest(rest)
        }
    }

    /// Pages of at least this many bytes go out with `sendfile` (``ChannelSocket``); shorter ones are read into
    /// the answer's buffer, which is written with the head in one call (`sendfile`'s own cost is more than the
    /// copies it saves on a short page: serve-bench, 4 / 8 / 16 KiB and 0 measured, Benchmarks/README.md).
    static let sendfileMinimum = 8192

    /// Sends the answer to a plain `GET` of `target` when ``heads`` remembers it, straight on `socket`, past NIO's
    /// write path (the caller has made sure none of NIO's writes is pending): the head, then a page of at least
    /// ``sendfileMinimum`` bytes from its open file with `sendfile` when the page cache holds all of it
    /// (`cachestat`; where the kernel has none, read as a shorter one), any other page from the buffer
    /// ``known(_:target:allocator:)`` fills; counted and logged. Nil
    /// when nothing was sent: the full route answers (``answer(_:head:conditions:allocator:remote:)``).
    func send(_ target: String, on socket: ChannelSocket, allocator: ByteBufferAllocator, remote: () -> String)
        -> Sending?
    {
        guard let entry = heads.get(target) else { return nil }
        let start = ContinuousClock.now
        let length: Int
        let sending: Sending
        if case .file(let file) = entry.body, file.size >= Self.sendfileMinimum,
            let cached = ContainedFile.isCached(file.descriptor, size: file.size)  // nil: no cachestat (Linux < 6.5)
        {
            guard cached else { return nil }  // the full route reads what is not cached, off the event loop
            guard folderExists(entry) else {
                heads.removeFolder(entry.folder)
                return nil
            }
            var head = allocator.buffer(capacity: entry.head.readableBytes + 160)
            head.writeImmutableBuffer(entry.head)
            writeTrailer(&head, length: file.size)
            let outcome = head.withUnsafeReadableBytes {
                socket.send(head: $0, file: file.descriptor, count: file.size)
            }
            sending = rest(outcome, head: head, file: file, allocator: allocator)
            length = file.size
        } else if case .cached(let key, let page, let docset) = entry.body {
            // A tarix page: the head, then the page cache's bytes as they are kept, in one `writev`.
            guard folderExists(entry) else {
                heads.removeFolder(entry.folder)
                return nil
            }
            guard let bytes = cachedBytes(key, page: page, of: docset) else { return nil }
            var head = allocator.buffer(capacity: entry.head.readableBytes + 160)
            head.writeImmutableBuffer(entry.head)
            writeTrailer(&head, length: bytes.count)
            sending = bytes.withUnsafeBytes { body in
                Self.sending(
                    head.withUnsafeReadableBytes { socket.send($0, body) }, head: head, body: body,
                    allocator: allocator)
            }
            length = bytes.count
        } else {
            guard let whole = known(entry, target: target, allocator: allocator) else { return nil }
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            sending = Self.sending(
                whole.answer.withUnsafeReadableBytes { socket.send($0, empty) }, head: whole.answer, body: empty,
                allocator: allocator)
            length = whole.length
        }
        log?.record(method: .get, target: target, remote: remote(), status: 200, bytes: length)
        counters.record(.pages, status: 200, duration: ContinuousClock.now - start)
        return sending
    }

    /// What is left of an answer of `head` and `file` after `outcome`: the rest of the head and the rest of the
    /// file, read (the page cache held it a moment ago) into one buffer for NIO.
    private func rest(
        _ outcome: ChannelSocket.Outcome, head: ByteBuffer, file: PageHeads.OpenFile, allocator: ByteBufferAllocator
    ) -> Sending {
        guard case .partial(let sent) = outcome else { return outcome == .all ? .sent : .broken }
        let headLeft = max(0, head.readableBytes - sent)
        let from = max(0, sent - head.readableBytes)
        var out = allocator.buffer(capacity: headLeft + file.size - from)
        if headLeft > 0 { out.writeImmutableBuffer(head.getSlice(at: head.readerIndex + sent, length: headLeft)!) }
        guard append(file, from: from, to: &out) else { return .broken }
        return .rest(out)
    }

    /// Appends the bytes of `file` from `offset` to its end to `out`; false when they cannot all be read without
    /// waiting (or the file is shorter now).
    private func append(_ file: PageHeads.OpenFile, from offset: Int, to out: inout ByteBuffer) -> Bool {
        let size = file.size
        var done = offset
        while done < size {
            var failed = false
            let at = done
            done += out.writeWithUnsafeMutableBytes(minimumWritableBytes: size - done) { target in
                let n = ContainedFile.readCached(
                    file.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: target[..<(size - at)]), at: at)
                if n < 0, errno == EINTR { return 0 }
                failed = n <= 0  // not cached (EAGAIN), an error, or the file ended sooner
                return max(0, n)
            }
            if failed { return false }
        }
        return withExtendedLifetime(file) { true }  // its descriptor stays open until the reads are done
    }

    /// `head`, the trailer and the bytes of `file` in one buffer; nil when they cannot all be read without waiting.
    private func read(_ file: PageHeads.OpenFile, after head: ByteBuffer, allocator: ByteBufferAllocator)
        -> ByteBuffer?
    {
        var out = allocator.buffer(capacity: head.readableBytes + 160 + file.size)
        out.writeImmutableBuffer(head)
        writeTrailer(&out, length: file.size)
        return append(file, from: 0, to: &out) ? out : nil
    }

    /// Linux's `O_NOATIME` (`01000000` on x86-64 and arm64; Glibc's module map leaves it out: it is GNU-only).
    private static let noAccessTime: Int32 = 0o100_0000

    /// `HTTP/1.1 <status>`, the answer's fields, `Content-Length`, `X-Content-Type-Options`, `Date`, `Server`.
    func render(_ answer: PageAnswer, length: Int, allocator: ByteBufferAllocator) -> ByteBuffer {
        var out = renderFields(answer, allocator: allocator)
        writeTrailer(&out, length: length)
        return out
    }

    /// `HTTP/1.1 <status>` and the answer's fields, each line ending in CRLF.
    func renderFields(_ answer: PageAnswer, allocator: ByteBufferAllocator) -> ByteBuffer {
        var out = allocator.buffer(capacity: 512)
        switch answer.status.code {
        case 200: out.writeStaticString("HTTP/1.1 200 OK\r\n")
        case 304: out.writeStaticString("HTTP/1.1 304 Not Modified\r\n")
        case 206: out.writeStaticString("HTTP/1.1 206 Partial Content\r\n")
        default:
            out.writeStaticString("HTTP/1.1 ")
            out.writeString(String(answer.status.code))
            out.writeStaticString(" ")
            out.writeString(answer.status.reasonPhrase)
            out.writeStaticString("\r\n")
        }
        for field in answer.headers {
            out.writeString(field.name.rawName)
            out.writeStaticString(": ")
            out.writeString(field.value)
            out.writeStaticString("\r\n")
        }
        return out
    }

    /// `Content-Length`, `X-Content-Type-Options`, `Date`, `Server` and the blank line that ends the head.
    func writeTrailer(_ out: inout ByteBuffer, length: Int) {
        out.writeStaticString("Content-Length: ")
        out.writeString(String(length))
        out.writeStaticString("\r\nX-Content-Type-Options: nosniff\r\nDate: ")
        out.writeString(date.field().value)
        out.writeStaticString("\r\nServer: docsync\r\n\r\n")
    }
}
