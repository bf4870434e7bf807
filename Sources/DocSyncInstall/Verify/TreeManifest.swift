import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What an installed version holds: every path with its kind, and for files the size and SHA-256. Recorded at
/// install in `<root>/.docsync/manifests/<NAME@ID>` (beside the tree, never inside it) and compared by `verify`.
///
/// Text format, one entry per line after the header: `F SIZE SHA256 PATH`, `D PATH`, `L PATH TARGET`; paths and
/// targets percent-encode `%`, spaces and control characters. Format 1 (`docsync-manifest 1`, written by `encoded()`
/// and by docsync before format 2) lists each path once, sorted. Format 2 (`docsync-manifest 2`, written by
/// `ManifestRecorder` while the tree is extracted) lists lines in the order things happened: a later line for a path
/// replaces an earlier one, and `X PATH` removes it. Both decode to the same `entries`.
struct TreeManifest: Equatable, Sendable {
    enum Entry: Equatable, Sendable {
        case file(size: Int64, sha256: String)
        case directory
        case symlink(target: String)
    }

    static let header = "docsync-manifest 1"
    static let header2 = "docsync-manifest 2"
    var entries: [String: Entry] = [:]

    /// Reads the tree below `folder` (links are recorded, never followed).
    static func build(_ folder: SafeDirectory) throws(SystemError) -> TreeManifest {
        var manifest = TreeManifest()
        try folder.walk { entry throws(SystemError) in
            if entry.isDirectory {
                manifest.entries[entry.path] = .directory
            } else if entry.isSymlink {
                manifest.entries[entry.path] = .symlink(target: Self.linkTarget(entry.name, in: entry.parent))
            } else if entry.isRegular {
                if let (sha256, size) = try? entry.parent.digest(of: entry.name) {
                    manifest.entries[entry.path] = .file(size: size, sha256: sha256)
                } else {  // unreadable (permissions changed): never equal to what was installed
                    manifest.entries[entry.path] = .file(size: Int64(entry.status.st_size), sha256: "unreadable")
                }
            }
        }
        return manifest
    }

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        encode(leaving: nil) { bytes += $0 }
        return bytes
    }

    /// Format 1, handed to `body` in pieces of about 64 KiB (so a digest of it needs no copy of the whole text),
    /// without the entry at `skipped`.
    func encode(leaving skipped: String?, _ body: ([UInt8]) -> Void) {
        var chunk = Array((Self.header + "\n").utf8)
        for path in entries.keys.sorted() where path != skipped {
            switch entries[path]! {
            case .file(let size, let sha256): chunk += "F \(size) \(sha256) \(Self.encode(path))\n".utf8
            case .directory: chunk += "D \(Self.encode(path))\n".utf8
            case .symlink(let target): chunk += "L \(Self.encode(path)) \(Self.encode(target))\n".utf8
            }
            if chunk.count >= 64 << 10 {
                body(chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        if !chunk.isEmpty { body(chunk) }
    }

    init() {}

    /// Nil when the bytes are not a manifest. Read as bytes (lines and fields split on bytes, not characters:
    /// fields are percent-encoded, so no separator hides in them), since `sync` reads the manifest of every
    /// docset it leaves unchanged (``Installer/checkEssentials(names:)``).
    /// With `only`, the entries of those paths alone (each written without percent-encoding: no space, `%` or
    /// control character), every other line still checked for its shape: the essentials check of every unchanged
    /// docset on every sync looks up six paths, not a dictionary of every file.
    init?(decoding bytes: [UInt8], only: [String]? = nil) {
        var lines = Self.lineRanges(bytes)[...]  // ranges, not slices: 16 bytes a line beside the text
        guard let first = lines.popFirst() else { return nil }
        let header = String(decoding: bytes[first], as: UTF8.self)
        guard header == Self.header || header == Self.header2 else { return nil }
        let ordered = header == Self.header2
        let wanted = only?.map { Array($0.utf8) }
        for range in lines {
            if let wanted {
                // Lines of other paths are only checked for their shape, without splitting them into fields.
                let shape = Self.fields(of: range, in: bytes)
                guard shape.first.count == 1 else { return nil }
                let kind = bytes[shape.first.lowerBound]
                if shape.count >= 2 {
                    let path = kind == UInt8(ascii: "F") && shape.count == 4 ? shape.fourth : shape.second
                    if !wanted.contains(where: { $0.count == path.count && bytes[path].elementsEqual($0) }) {
                        switch (kind, shape.count) {
                        case (UInt8(ascii: "F"), 4), (UInt8(ascii: "D"), 2), (UInt8(ascii: "L"), 3): continue
                        case (UInt8(ascii: "X"), 2) where ordered: continue
                        default: return nil
                        }
                    }
                }
            }
            guard let parsed = ManifestLine(bytes[range], ordered: ordered) else { return nil }
            entries[String(decoding: parsed.path, as: UTF8.self)] = parsed.entry
        }
    }

    /// How many space-separated fields the line at `range` has (empty ones skipped, as `split` skips them) and
    /// where its first, second and fourth are (empty ranges when it has fewer).
    private static func fields(of range: Range<Int>, in bytes: [UInt8])
        -> (count: Int, first: Range<Int>, second: Range<Int>, fourth: Range<Int>)
    {
        var count = 0
        var (first, second, fourth) = (range.lowerBound..<range.lowerBound, 0..<0, 0..<0)
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == UInt8(ascii: " ") {
                index += 1
                continue
            }
            let start = index
            while index < range.upperBound, bytes[index] != UInt8(ascii: " ") { index += 1 }
            switch count {
            case 0: first = start..<index
            case 1: second = start..<index
            case 3: fourth = start..<index
            default: break
            }
            count += 1
        }
        return (count, first, second, fourth)
    }

    /// The non-empty lines of `bytes` (found with memchr).
    private static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), buffer.count - start)
                let end = hit.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? buffer.count
                if end > start { ranges.append(start..<end) }
                start = end + 1
            }
        }
        return ranges
    }

    /// What differs in `actual`, one readable line each (empty: the tree is as installed).
    func differences(from actual: TreeManifest) -> [String] {
        var problems: [String] = []
        for path in entries.keys.sorted() {
            let expected = entries[path]!
            guard let found = actual.entries[path] else {
                problems.append("missing \(path)")
                continue
            }
            switch (expected, found) {
            case (.file(let size, let sha), .file(let actualSize, let actualSHA)):
                if size != actualSize {
                    problems.append("changed \(path) (size \(size) → \(actualSize))")
                } else if sha != actualSHA {
                    problems.append("changed \(path) (content)")
                }
            case (.symlink(let target), .symlink(let actualTarget)) where target != actualTarget:
                problems.append("changed \(path) (link target)")
            case (.directory, .directory), (.symlink, .symlink): break
            default: problems.append("changed \(path) (type)")
            }
        }
        for path in actual.entries.keys.sorted() where entries[path] == nil { problems.append("unexpected \(path)") }
        return problems
    }

    private static func linkTarget(_ name: String, in folder: SafeDirectory) -> String {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlinkat(folder.fd, name, &buffer, 4096)
        return n < 0 ? "" : String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Percent-encodes `%`, spaces and control bytes; everything else (UTF-8 included) is kept ("": `%00`).
    private static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var text = text
        text.withUTF8 { ManifestLine.appendEncoded(UnsafeRawBufferPointer($0), to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
