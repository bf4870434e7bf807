import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A version's manifest as `TreeManifest(decoding:)` holds it — each path once, its last line winning and `X`
/// removing it, paths equal as Swift Strings counting as one path (the first one added kept, as a dictionary keeps
/// its key) — handed out in the order `TreeManifest.encoded()` writes them (Swift's String order), without a
/// dictionary or a String per path: the lines go through a `RecordSorter` that spills sorted runs to a scratch file,
/// so reading a manifest of any size costs a few MiB. The content digest and the content record's page lines are
/// made from it (`SortedManifest+Content`), byte for byte as from the dictionary.
///
/// Each line is one sorter record: the path's UTF-8 (as the String the dictionary would hold: invalid UTF-8
/// replaced) after its 4-byte length, an ASCII flag, the line's number (8 bytes: the last line of a path wins), the
/// kind byte (`F`, `D`, `L`, `X`), then for `F` the size (8 bytes) and the SHA-256 field, for `L` the target.
final class SortedManifest {
    /// One path as the manifest leaves it (valid during the `forEach` call only).
    struct Item {
        /// The path's UTF-8.
        var path: UnsafeRawBufferPointer
        var isASCII: Bool
        /// `F`, `D` or `L`.
        var kind: UInt8
        /// A file's size (0 for the others).
        var size: Int64
        /// A file's SHA-256 field, a link's target (empty for a folder).
        var payload: UnsafeRawBufferPointer

        var pathString: String { String(decoding: path, as: UTF8.self) }

        /// Whether the path is `text` (compared as Swift compares Strings).
        func isPath(_ text: String) -> Bool {
            isASCII ? path.elementsEqual(text.utf8) : pathString == text
        }
    }

    private let sorter: RecordSorter

    private init(sorter: RecordSorter) { self.sorter = sorter }

    /// Reads the manifest file open as `fd` (read from its current offset to its end); nil when it is not a
    /// manifest (`TreeManifest(decoding:)` would be nil). Spills to `directory` (nil: all in memory) in runs of
    /// `runBytes`.
    static func read(
        fd: Int32, path: String, spillingInto directory: SafeDirectory?, runBytes: Int = 4 << 20
    ) throws(SystemError) -> SortedManifest? {
        let sorter = RecordSorter(runBytes: runBytes, spillingInto: directory, order: precedes)
        var header: Bool?
        var valid = true
        var failure: SystemError?
        var number: UInt64 = 0
        var record: [UInt8] = []
        try ManifestLine.forEach(inFile: fd, path: path) { line in
            guard let ordered = header else {
                let text = String(decoding: line, as: UTF8.self)
                header = text == TreeManifest.header2
                valid = text == TreeManifest.header || text == TreeManifest.header2
                return valid
            }
            guard let parsed = ManifestLine(line, ordered: ordered) else {
                valid = false
                return false
            }
            number += 1
            encode(parsed, number: number, into: &record)
            do throws(SystemError) { try sorter.append(record) } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        guard valid, header != nil else { return nil }
        return SortedManifest(sorter: sorter)
    }

    /// Every path the manifest leaves, in order.
    func forEach(_ body: (Item) throws(SystemError) -> Void) throws(SystemError) {
        var group: [UInt8] = []
        var groupASCII = false
        var started = false
        var kept: [UInt8] = []
        var keptASCII = false
        var present = false
        var latest: [UInt8] = []
        func emit() throws(SystemError) {
            guard present else { return }
            var failure: SystemError?
            kept.withUnsafeBytes { path in
                latest.withUnsafeBytes { record in
                    let fields = Self.fields(of: record)
                    let item = Item(
                        path: path, isASCII: keptASCII, kind: fields.kind, size: fields.size, payload: fields.payload)
                    do throws(SystemError) { try body(item) } catch { failure = error }
                }
            }
            if let failure { throw failure }
        }
        try sorter.forEach { (record) throws(SystemError) in
            let fields = Self.fields(of: record)
            if !started || !Self.equal(group, groupASCII, fields.path, fields.isASCII) {
                try emit()
                started = true
                group.removeAll(keepingCapacity: true)
                group.append(contentsOf: fields.path)
                groupASCII = fields.isASCII
                present = false
            }
            if fields.kind == UInt8(ascii: "X") {
                present = false
                return
            }
            if !present {  // a dictionary keeps the key it was first given
                kept.removeAll(keepingCapacity: true)
                kept.append(contentsOf: fields.path)
                keptASCII = fields.isASCII
                present = true
            }
            latest.removeAll(keepingCapacity: true)
            latest.append(contentsOf: record)
        }
        try emit()
    }

    // MARK: Records

    private static func encode(_ line: ManifestLine, number: UInt64, into record: inout [UInt8]) {
        record.removeAll(keepingCapacity: true)
        let ascii = line.path.allSatisfy { $0 < 0x80 }
        let path = ascii ? line.path : Array(String(decoding: line.path, as: UTF8.self).utf8)
        append(UInt32(path.count), to: &record)
        record += path
        record.append(ascii ? 1 : 0)
        append(number, to: &record)
        switch line.entry {
        case .file(let size, let sha256)?:
            record.append(UInt8(ascii: "F"))
            append(UInt64(bitPattern: size), to: &record)
            record += sha256.utf8
        case .directory?: record.append(UInt8(ascii: "D"))
        case .symlink(let target)?:
            record.append(UInt8(ascii: "L"))
            record += target.utf8
        case nil: record.append(UInt8(ascii: "X"))
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to record: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { record += $0 }
    }

    private struct Fields {
        var path: UnsafeRawBufferPointer
        var isASCII: Bool
        var number: UInt64
        var kind: UInt8
        var size: Int64
        var payload: UnsafeRawBufferPointer
    }

    private static func fields(of record: UnsafeRawBufferPointer) -> Fields {
        let length = Int(UInt32(littleEndian: record.loadUnaligned(as: UInt32.self)))
        let path = UnsafeRawBufferPointer(rebasing: record[4..<4 + length])
        var at = 4 + length
        let ascii = record[at] == 1
        let number = UInt64(littleEndian: record.loadUnaligned(fromByteOffset: at + 1, as: UInt64.self))
        at += 9
        let kind = record[at]
        at += 1
        var size: Int64 = 0
        if kind == UInt8(ascii: "F") {
            size = Int64(bitPattern: UInt64(littleEndian: record.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
            at += 8
        }
        let payload = UnsafeRawBufferPointer(rebasing: record[at...])
        return Fields(path: path, isASCII: ascii, number: number, kind: kind, size: size, payload: payload)
    }

    /// Swift's String order of the paths (bytes when both are ASCII: the same order, cheaper), then line order.
    private static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let x = fields(of: a)
        let y = fields(of: b)
        if x.isASCII && y.isASCII {
            let shorter = min(x.path.count, y.path.count)
            let byBytes = shorter == 0 ? 0 : memcmp(x.path.baseAddress!, y.path.baseAddress!, shorter)
            if byBytes != 0 { return byBytes < 0 }
            if x.path.count != y.path.count { return x.path.count < y.path.count }
        } else {
            let p = String(decoding: x.path, as: UTF8.self)
            let q = String(decoding: y.path, as: UTF8.self)
            if p != q { return p < q }
        }
        return x.number < y.number
    }

    private static func equal(_ a: [UInt8], _ aASCII: Bool, _ b: UnsafeRawBufferPointer, _ bASCII: Bool) -> Bool {
        if aASCII && bASCII { return a.elementsEqual(b) }
        return String(decoding: a, as: UTF8.self) == String(decoding: b, as: UTF8.self)
    }
}
