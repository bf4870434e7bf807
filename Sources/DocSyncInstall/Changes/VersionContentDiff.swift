import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The differences between two `VersionContent` files, found by one merge of their sorted sections: read in
/// 256 KiB chunks, so memory stays constant whatever the docsets' size (only the differences become strings).
package enum VersionContentDiff {
    /// One difference.
    package enum Change: Sendable, Equatable {
        /// A page only the new version has, only the old one has, or whose bytes differ.
        case page(String, PageChange)
        /// An index entry only the new version has (`added: true`) or only the old one has.
        case entry(VersionContent.Entry, added: Bool)
    }

    /// What happened to a page.
    package enum PageChange: String, Sendable {
        case added, removed, modified
    }

    /// Calls `emit` with every page difference (by page), then every entry difference (by line), between the
    /// content files open as `old` and `new` (nil: an empty version — everything is added or removed). `emit`
    /// returning false stops the merge. Throws when a file cannot be read or is not a content record.
    package static func diff(
        old: Int32?, new: Int32?, names: (old: String, new: String), emit: (Change) -> Bool
    ) throws(SystemError) {
        var a = try LineStream(fd: old, name: names.old)
        var b = try LineStream(fd: new, name: names.new)
        func isPage(_ stream: LineStream) -> Bool { stream.firstByte == UInt8(ascii: "P") }
        // Page lines compare by their page (after `P<TAB>DIGEST<TAB>`, equal lengths: every digest is as long).
        func page(_ line: ArraySlice<UInt8>) throws(SystemError) -> (
            digest: ArraySlice<UInt8>, key: ArraySlice<UInt8>
        ) {
            let start = line.startIndex
            guard line.count > 3 + VersionContent.digestLength, line[start + 1] == UInt8(ascii: "\t"),
                line[start + 2 + VersionContent.digestLength] == UInt8(ascii: "\t")
            else { throw SystemError("reading content record", path: names.new, code: EINVAL) }
            return (line[(start + 2)..<(start + 2 + VersionContent.digestLength)],
                line[(start + 3 + VersionContent.digestLength)...])
        }
        func pagePath(_ key: ArraySlice<UInt8>) -> String {
            ChangeRecord.unescape(String(decoding: key, as: UTF8.self)) ?? String(decoding: key, as: UTF8.self)
        }
        // Pages: both sections sorted by page key.
        while isPage(a) || isPage(b) {
            if isPage(a), isPage(b) {
                let order = LineStream.compare(a, b, skip: 3 + VersionContent.digestLength)
                if order == 0 {
                    if LineStream.compare(a, b) != 0, !emit(.page(pagePath(try page(b.line!).key), .modified)) {
                        return
                    }
                    try a.advance()
                    try b.advance()
                } else if order < 0 {
                    if !emit(.page(pagePath(try page(a.line!).key), .removed)) { return }
                    try a.advance()
                } else {
                    if !emit(.page(pagePath(try page(b.line!).key), .added)) { return }
                    try b.advance()
                }
            } else if isPage(a) {
                if !emit(.page(pagePath(try page(a.line!).key), .removed)) { return }
                try a.advance()
            } else {
                if !emit(.page(pagePath(try page(b.line!).key), .added)) { return }
                try b.advance()
            }
        }
        // Entries: both sections sorted by line.
        func entry(_ line: ArraySlice<UInt8>, _ name: String) throws(SystemError) -> VersionContent.Entry {
            guard let entry = VersionContent.Entry(line: line) else {
                throw SystemError("reading content record", path: name, code: EINVAL)
            }
            return entry
        }
        while a.firstByte != nil, b.firstByte != nil {
            let order = LineStream.compare(a, b)
            if order == 0 {
                try a.advance()
                try b.advance()
            } else if order < 0 {
                if !emit(.entry(try entry(a.line!, names.old), added: false)) { return }
                try a.advance()
            } else {
                if !emit(.entry(try entry(b.line!, names.new), added: true)) { return }
                try b.advance()
            }
        }
        while let line = a.line {
            if !emit(.entry(try entry(line, names.old), added: false)) { return }
            try a.advance()
        }
        while let line = b.line {
            if !emit(.entry(try entry(line, names.new), added: true)) { return }
            try b.advance()
        }
    }
}

/// The lines of a file after its `VersionContent.magic` header, read in chunks; `line` is the current one (without
/// its newline), valid until `advance()`. A nil descriptor reads as no lines. Lines are found with `memchr` (the
/// byte loop of a generic `firstIndex` costs 20x more in a debug build).
struct LineStream {
    private let fd: Int32?
    private let name: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false
    /// Where the current line is in `buffer`.
    private var current: Range<Int>?

    static let chunk = 256 << 10

    init(fd: Int32?, name: String) throws(SystemError) {
        self.fd = fd
        self.name = name
        atEnd = fd == nil
        try advance()
        guard fd != nil else { return }
        guard let header = line, header.elementsEqual(VersionContent.magic.utf8) else {
            throw SystemError("reading content record (not \(VersionContent.magic))", path: name, code: EINVAL)
        }
        try advance()
    }

    /// The current line (nil after the last).
    var line: ArraySlice<UInt8>? { current.map { buffer[$0] } }

    /// The current line's first byte (nil after the last, or for an empty line), without making a slice.
    var firstByte: UInt8? {
        guard let current, !current.isEmpty else { return nil }
        return buffer[current.lowerBound]
    }

    /// Compares the current lines of `a` and `b` (both present) bytewise, after `skip` bytes of each: < 0, 0, > 0.
    static func compare(_ a: LineStream, _ b: LineStream, skip: Int = 0) -> Int {
        guard let ra = a.current, let rb = b.current else { return 0 }
        let la = max(0, ra.count - skip)
        let lb = max(0, rb.count - skip)
        let order = a.buffer.withUnsafeBufferPointer { pa in
            b.buffer.withUnsafeBufferPointer { pb in
                memcmp(pa.baseAddress! + ra.lowerBound + min(skip, ra.count),
                    pb.baseAddress! + rb.lowerBound + min(skip, rb.count), min(la, lb))
            }
        }
        return order != 0 ? Int(order) : la - lb
    }

    mutating func advance() throws(SystemError) {
        current = nil
        while true {
            let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
                guard start < bytes.count, let base = bytes.baseAddress,
                    let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
                else { return nil }
                return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            }
            if let newline = found {
                current = start..<newline
                start = newline + 1
                return
            }
            if atEnd { return }
            try fill()
        }
    }

    /// Drops the bytes consumed and reads the next chunk.
    private mutating func fill() throws(SystemError) {
        guard let fd else { return }
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var n = 0
        // Read into a chunk of its own, appended with one copy (no element-by-element fill).
        let chunk = [UInt8](unsafeUninitializedCapacity: Self.chunk) { bytes, count in
            repeat {
                n = read(fd, bytes.baseAddress!, Self.chunk)
            } while n < 0 && errno == EINTR
            count = max(n, 0)
        }
        if n < 0 { throw SystemError("read", path: name) }
        buffer.append(contentsOf: chunk)
        if n == 0 { atEnd = true }
    }
}
