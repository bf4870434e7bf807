#if canImport(Glibc)
    import Glibc
#endif

/// A record `readdir` returned, read in place. `dirent.d_name` is declared as 256 bytes, but the kernel packs records
/// by `d_reclen`: a record ends soon after its name's NUL, so copying the field (`entry.pointee.d_name`, as
/// `withUnsafePointer(to:)` does) reads up to 256 bytes past a short name — beyond `readdir`'s buffer for the last
/// record in it (a crash seen in `TreeRemover` under the kill loop). The name is read where it lies, up to its NUL.
package struct DirectoryEntry {
    /// The record, valid until the next `readdir` or `closedir` of its stream.
    package let record: UnsafeMutablePointer<dirent>

    package init(_ record: UnsafeMutablePointer<dirent>) { self.record = record }

    /// The name's first byte, in the record (NUL-terminated).
    package var namePointer: UnsafePointer<CChar> {
        UnsafeRawPointer(record).advanced(by: Self.nameOffset).assumingMemoryBound(to: CChar.self)
    }

    /// The raw name with its NUL (a name that is not UTF-8 stays deletable).
    package var rawName: [CChar] {
        let name = namePointer
        return Array(UnsafeBufferPointer(start: name, count: strlen(name) + 1))
    }

    /// The name as a String (invalid UTF-8 repaired, as `String(cString:)` does).
    package var name: String { String(cString: namePointer) }

    /// `d_type` (`DT_DIR`, `DT_REG`, …; `DT_UNKNOWN` where the file system does not say).
    package var type: UInt8 { record.pointee.d_type }

    /// Whether the name is "." or "..".
    package var isDotOrDotDot: Bool {
        let name = namePointer
        return name[0] == 46 && (name[1] == 0 || (name[1] == 46 && name[2] == 0))
    }

    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
}
