import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Why an `XMLInput` stopped handing bytes to the parser.
enum XMLInputFailure: Error, Sendable, Equatable {
    case tooLarge(limit: Int)
    case doctype(line: Int, column: Int)
    case io(errno: Int32)
    case tooManyAttributes(limit: Int, line: Int)
}

/// The bytes of one document, handed to libxml2 chunk by chunk. Counts every byte it hands out and refuses to go
/// past `limit`; withholds a prolog DOCTYPE (see `XMLPrologGuard`). Owns the file descriptor it reads.
final class XMLInput {
    private enum Source {
        case file(descriptor: Int32)
        case bytes([UInt8], offset: Int)
        case finished
    }

    let limit: Int
    private var source: Source
    private var prolog = XMLPrologGuard()
    private var attributes: XMLAttributeCounter
    private(set) var bytesRead = 0
    private(set) var failure: XMLInputFailure?
    /// True once the source reported its end (every byte was handed out).
    private(set) var isAtEnd = false
    /// The position just after the last byte handed out, as libxml2 counts it (1-based line; 1-based column
    /// counting UTF-8 characters).
    private(set) var endLine = 1
    private(set) var endColumn = 1
    /// The position just after the last byte that is not whitespace: an error at or after it has nothing but
    /// whitespace left to parse.
    private(set) var contentEndLine = 1
    private(set) var contentEndColumn = 1

    /// Opens `path` for reading; throws the errno on failure.
    init(
        fileAt path: String, limit: Int, maxAttributes: Int = FeedLimits.defaultMaxAttributes
    ) throws(XMLInputFailure) {
        let opened: (fd: Int32, size: Int64)?
        do throws(SystemError) { opened = try RegularFile.open(path, followSymlink: true) } catch {
            throw .io(errno: error.code)
        }
        guard let descriptor = opened?.fd else { throw .io(errno: ENOENT) }
        self.source = .file(descriptor: descriptor)
        self.limit = limit
        self.attributes = XMLAttributeCounter(limit: maxAttributes)
    }

    init(bytes: [UInt8], limit: Int, maxAttributes: Int = FeedLimits.defaultMaxAttributes) {
        self.source = .bytes(bytes, offset: 0)
        self.limit = limit
        self.attributes = XMLAttributeCounter(limit: maxAttributes)
    }

    deinit { finish() }

    /// Fills `buffer`; returns the byte count, 0 at the end, or -1 after recording a failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard failure == nil, buffer.count > 0 else { return failure == nil ? 0 : -1 }
        let count: Int
        switch source {
        case .finished: return 0  // after the end, or after `deinit` began
        case .bytes(let bytes, let offset):
            count = min(buffer.count, bytes.count - offset)
            bytes.withUnsafeBytes { all in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + count]))
            }
            source = .bytes(bytes, offset: offset + count)
        case .file(let descriptor):
            var result: Int
            repeat {
                result = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            } while result < 0
                && errno == EINTR
            guard result >= 0 else { return fail(.io(errno: errno)) }
            count = result
        }
        guard bytesRead + count <= limit else { return fail(.tooLarge(limit: limit)) }
        bytesRead += count
        guard attributes.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
            return fail(.tooManyAttributes(limit: attributes.limit, line: attributes.exceededAt ?? endLine))
        }
        advancePosition(over: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        if prolog.verdict == .undecided {
            prolog.consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            if case .doctype(let line, let column) = prolog.verdict {
                return fail(.doctype(line: line, column: column))
            }
        }
        if count == 0 {
            isAtEnd = true
            finish()
        }
        return count
    }

    private func advancePosition(over bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let startColumn = endColumn
        var lineStart = 0
        while lineStart < bytes.count, let newline = memchr(base + lineStart, 0x0A, bytes.count - lineStart) {
            endLine += 1
            endColumn = 1
            lineStart = base.distance(to: UnsafeRawPointer(newline)) + 1
        }
        endColumn += Self.characters(in: UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))

        // Where the content ends: just after the last byte that is not XML whitespace.
        guard let last = bytes.lastIndex(where: { !Self.isWhitespace($0) }) else { return }
        let trailing = UnsafeRawBufferPointer(rebasing: bytes[(last + 1)...])
        let trailingNewlines = trailing.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        contentEndLine = endLine - trailingNewlines
        if trailingNewlines == 0 {
            contentEndColumn = endColumn - trailing.count
        } else if let newline = bytes[..<last].lastIndex(of: 0x0A) {
            contentEndColumn = 1 + Self.characters(in: UnsafeRawBufferPointer(rebasing: bytes[(newline + 1)...last]))
        } else {
            // Every newline of the chunk trails the content, so the content ends on the chunk's first line.
            contentEndColumn = startColumn + Self.characters(in: UnsafeRawBufferPointer(rebasing: bytes[...last]))
        }
    }

    /// UTF-8 characters (bytes that are not continuation bytes).
    private static func characters(in bytes: UnsafeRawBufferPointer) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 != 0x80 ? 1 : 0) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private func fail(_ failure: XMLInputFailure) -> Int {
        self.failure = failure
        finish()
        return -1
    }

    private func finish() {
        if case .file(let descriptor) = source { close(descriptor) }
        source = .finished
    }
}
