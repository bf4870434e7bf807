import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `<root>/.docsync/changes/log`, as read by the writer and by readers: a header line `docsync-changes 1 EPOCH FIRST`
/// (the log's random epoch, which cursors carry, and the sequence number of the first record kept), then one
/// ``ChangeRecord`` line per change, sequence numbers consecutive. A last line without its newline is a write a crash
/// cut short: never part of the log (the writer truncates it under the root's lock).
///
/// Read from the end backwards in 64 KiB chunks, so that the last records of a long log cost one or two reads.
package struct ChangeLogFile {
    package static let folderName = "changes"
    package static let fileName = "log"
    static let magic = "docsync-changes 1"

    let fd: Int32
    let path: String
    /// The log's identity, carried by its cursors.
    package let epoch: String
    /// The sequence number of the first record kept (records before it were dropped by retention).
    package let first: UInt64
    let headerLength: Int64
    /// The end of the last complete line.
    let completeEnd: Int64

    /// Reads the header of the log open at `fd` (the caller keeps the descriptor).
    init(fd: Int32, path: String) throws(ChangeLogProblem) {
        self.fd = fd
        self.path = path
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .io(SystemError("fstat", path: path)) }
        let head = try Self.read(fd, at: 0, count: Int(min(st.st_size, 128)), path: path)
        guard let newline = head.firstIndex(of: 10) else { throw .corrupt(path, "no header line") }
        let fields = String(decoding: head[..<newline], as: UTF8.self).split(separator: " ")
        guard fields.count == 4, "\(fields[0]) \(fields[1])" == Self.magic, Self.isEpoch(fields[2]),
            let first = UInt64(fields[3]), first >= 1
        else { throw .corrupt(path, "not a docsync change log header") }
        epoch = String(fields[2])
        self.first = first
        headerLength = Int64(newline + 1)
        completeEnd = try Self.endOfLastLine(fd, size: Int64(st.st_size), after: headerLength, path: path)
    }

    static func isEpoch(_ text: Substring) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func newEpoch() -> String {
        let value = UInt64.random(in: 0...UInt64.max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func header(epoch: String, first: UInt64) -> String { "\(magic) \(epoch) \(first)\n" }

    /// The last complete record and the offset its line starts at (nil: no records).
    func lastRecord() throws(ChangeLogProblem) -> (record: ChangeRecord, offset: Int64)? {
        var last: (ChangeRecord, Int64)?
        var bad = false
        try scanBackward { line, offset in
            if let record = ChangeRecord(line: line) { last = (record, offset) } else { bad = true }
            return false
        }
        if bad { throw .corrupt(path, "its last line is not a change record") }
        return last
    }

    /// The first record kept (nil: none).
    func firstRecord() throws(ChangeLogProblem) -> ChangeRecord? {
        guard completeEnd > headerLength else { return nil }
        var offset = headerLength
        var line: [UInt8] = []
        while offset < completeEnd {
            let bytes = try Self.read(fd, at: offset, count: Int(min(completeEnd - offset, 4096)), path: path)
            if let newline = bytes.firstIndex(of: 10) {
                line += bytes[..<newline]
                guard let record = ChangeRecord(line: String(decoding: line, as: UTF8.self)[...]) else {
                    throw .corrupt(path, "its first line is not a change record")
                }
                return record
            }
            line += bytes
            offset += Int64(bytes.count)
        }
        return nil
    }

    /// Visits complete lines from the last backwards, each with the offset it starts at, while `visit` says so.
    func scanBackward(chunk: Int = 1 << 16, _ visit: (Substring, Int64) -> Bool) throws(ChangeLogProblem) {
        var position = completeEnd
        var carry: [UInt8] = []  // the end of a line whose start is in an earlier chunk, its newline included
        while position > headerLength {
            let start = max(headerLength, position - Int64(chunk))
            let combined = try Self.read(fd, at: start, count: Int(position - start), path: path) + carry
            var end = combined.count - 1  // the newline ending the line being found
            carry = []
            while end >= 0 {
                let newline: Int? = combined.withUnsafeBufferPointer { buffer in
                    var index = end - 1
                    while index >= 0 && buffer[index] != 10 { index -= 1 }
                    return index >= 0 ? index : nil
                }
                if newline == nil && start > headerLength {
                    carry = Array(combined[...end])
                    break
                }
                let lineStart = (newline ?? -1) + 1
                let text = String(decoding: combined[lineStart..<end], as: UTF8.self)
                if !visit(text[...], start + Int64(lineStart)) { return }
                end = newline ?? -1
            }
            position = start
        }
    }

    /// The end of the last line that has its newline (`after` when none has).
    private static func endOfLastLine(_ fd: Int32, size: Int64, after start: Int64, path: String)
        throws(ChangeLogProblem) -> Int64
    {
        var end = size
        while end > start {
            let from = max(start, end - 4096)
            let bytes = try read(fd, at: from, count: Int(end - from), path: path)
            if let newline = bytes.lastIndex(of: 10) { return from + Int64(newline) + 1 }
            end = from
        }
        return start
    }

    static func read(_ fd: Int32, at offset: Int64, count: Int, path: String) throws(ChangeLogProblem) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw .io(SystemError("pread", path: path)) }
            if n == 0 { break }
            done += n
        }
        return done == count ? bytes : Array(bytes[..<done])
    }
}

/// Why the change log could not be read or written.
package enum ChangeLogProblem: Error, Sendable, Equatable {
    case io(SystemError)
    /// The file at the path is not a change log docsync wrote (what is wrong with it).
    case corrupt(String, String)

    package var message: String {
        switch self {
        case .io(let error): return "\(error)"
        case .corrupt(let path, let problem): return "\(path): \(problem)"
        }
    }
}
