import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension ChangeLogFile {
    /// Visits the lines of the records after sequence number `sequence`, oldest first, each as its bytes without the
    /// newline (valid only during the call), while `visit` says so; `lastSequence` is the last complete line's.
    ///
    /// The first line is found by counting `lastSequence - sequence` lines back from the end (sequence numbers are
    /// consecutive), then the log is read forward in 64 KiB chunks into one reused buffer: the whole log costs one
    /// pass over its bytes and no allocation per line, the last few records a read or two. The caller checks each
    /// line's sequence number (a log whose numbers are not consecutive is corrupt).
    func forEachLine(
        after sequence: UInt64, lastSequence: UInt64, chunk: Int = 1 << 16,
        _ visit: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(ChangeLogProblem) {
        guard lastSequence > sequence, completeEnd > headerLength else { return }
        var offset = sequence < first ? headerLength : try startOfLine(fromEnd: lastSequence - sequence, chunk: chunk)
        var buffer = [UInt8](repeating: 0, count: chunk)
        var carried = 0  // the start of a line whose end is in the next chunk, moved to the buffer's front
        while offset < completeEnd {
            if carried == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }  // a very long line
            let want = Int(min(Int64(buffer.count - carried), completeEnd - offset))
            let n = buffer.withUnsafeMutableBytes { raw -> Int in
                var done = 0
                while done < want {
                    let got = pread(fd, raw.baseAddress! + carried + done, want - done, off_t(offset) + off_t(done))
                    if got < 0 && errno == EINTR { continue }
                    if got <= 0 { return got < 0 ? -1 : done }
                    done += got
                }
                return done
            }
            if n < 0 { throw .io(SystemError("pread", path: path)) }
            if n == 0 { throw .corrupt(path, "shorter than when it was opened") }
            offset += Int64(n)
            let filled = carried + n
            let (consumed, stop) = buffer.withUnsafeBufferPointer { bytes -> (Int, Bool) in
                var start = 0
                while start < filled {
                    guard let newline = Self.index(of: 10, in: bytes, from: start, to: filled) else { break }
                    if !visit(UnsafeBufferPointer(rebasing: bytes[start..<newline])) { return (start, true) }
                    start = newline + 1
                }
                return (start, false)
            }
            if stop { return }
            carried = filled - consumed
            if carried > 0 && consumed > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + consumed, carried)
                }
            }
        }
    }

    /// Where the `count`-th complete line from the end starts (the first record's line when there are fewer).
    private func startOfLine(fromEnd count: UInt64, chunk: Int) throws(ChangeLogProblem) -> Int64 {
        var found: UInt64 = 0
        var position = completeEnd - 1  // the last line's newline is not a line start
        while position > headerLength {
            let start = max(headerLength, position - Int64(chunk))
            let bytes = try Self.read(fd, at: start, count: Int(position - start), path: path)
            let line = bytes.withUnsafeBufferPointer { bytes -> Int? in
                var index = bytes.count - 1
                while index >= 0 {
                    if bytes[index] == 10 {
                        found += 1
                        if found == count { return index + 1 }
                    }
                    index -= 1
                }
                return nil
            }
            if let line { return start + Int64(line) }
            position = start
        }
        return headerLength
    }

    /// The first `byte` in `bytes[from..<to]` (memchr).
    static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + from, Int32(byte), to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
}
