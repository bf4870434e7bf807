import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One line of a `TreeManifest` file after its header, parsed as `TreeManifest(decoding:)` reads it: fields split
/// on spaces (runs of them count as one), `F SIZE SHA256 PATH`, `D PATH`, `L PATH TARGET`, and in format 2 `X PATH`.
struct ManifestLine {
    /// The path's bytes, percent-decoded (read as UTF-8 by whoever makes a `String` of them).
    var path: [UInt8]
    /// What the line puts at the path; nil for `X` (the path removed).
    var entry: TreeManifest.Entry?

    /// Nil when the line is not one of the shapes above (`X` only when `ordered`: format 2).
    init?(_ line: ArraySlice<UInt8>, ordered: Bool) {
        let fields = line.split(separator: UInt8(ascii: " "))
        guard let kind = fields.first, kind.count == 1 else { return nil }
        switch (kind[kind.startIndex], fields.count) {
        case (UInt8(ascii: "F"), 4):
            guard let size = Int64(String(decoding: fields[1], as: UTF8.self)), let path = Self.decode(fields[3])
            else { return nil }
            self.path = path
            entry = .file(size: size, sha256: String(decoding: fields[2], as: UTF8.self))
        case (UInt8(ascii: "D"), 2):
            guard let path = Self.decode(fields[1]) else { return nil }
            self.path = path
            entry = .directory
        case (UInt8(ascii: "L"), 3):
            guard let path = Self.decode(fields[1]), let target = Self.decode(fields[2]) else { return nil }
            self.path = path
            entry = .symlink(target: String(decoding: target, as: UTF8.self))
        case (UInt8(ascii: "X"), 2) where ordered:
            guard let path = Self.decode(fields[1]) else { return nil }
            self.path = path
            entry = nil
        default: return nil
        }
    }

    /// A percent-encoded field's bytes (`%00` alone: the empty path); nil for a broken escape.
    static func decode(_ field: ArraySlice<UInt8>) -> [UInt8]? {
        if field.elementsEqual("%00".utf8) { return [] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var iterator = field.makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x25 else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    /// Appends `bytes` as the manifest writes a path or target: `%XX` for `%`, spaces and control bytes, everything
    /// else (UTF-8 included) kept; nothing at all is `%00`.
    static func appendEncoded(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        if bytes.isEmpty {
            out += Array("%00".utf8)
            return
        }
        for byte in bytes {
            if byte <= 0x20 || byte == 0x25 || byte == 0x7F {
                PercentEncoding.append(byte, to: &out)
            } else {
                out.append(byte)
            }
        }
    }

    /// Hands every non-empty line of the file open as `fd` to `body` (read through a 64 KiB window, grown only for
    /// a longer line) until `body` returns false.
    static func forEach(
        inFile fd: Int32, path: String, _ body: (ArraySlice<UInt8>) -> Bool
    ) throws(SystemError) {
        var window = [UInt8](repeating: 0, count: 64 << 10)
        var low = 0
        var high = 0
        var ended = false
        while true {
            // Lines wholly in the window.
            var start = low
            var stop = false
            window.withUnsafeBufferPointer { buffer in
                while start < high, !stop {
                    let hit = memchr(buffer.baseAddress! + start, Int32(UInt8(ascii: "\n")), high - start)
                    guard let hit else { break }
                    let end = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) - buffer.baseAddress!
                    if end > start, !body(window[start..<end]) { stop = true }
                    start = end + 1
                }
            }
            if stop { return }
            low = start
            if ended {
                if high > low { _ = body(window[low..<high]) }
                return
            }
            if low > 0 {
                window.withUnsafeMutableBytes { _ = memmove($0.baseAddress!, $0.baseAddress! + low, high - low) }
                high -= low
                low = 0
            }
            if high == window.count { window += [UInt8](repeating: 0, count: window.count) }
            let n = window.withUnsafeMutableBytes { read(fd, $0.baseAddress! + high, $0.count - high) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError("read", path: path)
            }
            if n == 0 { ended = true }
            high += n
        }
    }
}
