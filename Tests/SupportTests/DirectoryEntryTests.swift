import DocSyncSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `DirectoryEntry` reads a `readdir` record's name where it lies: never the 256 bytes `dirent.d_name` is declared
/// with, which run past the end of the last record in `readdir`'s buffer.
@Suite(.timeLimit(.minutes(5))) struct DirectoryEntryTests {
    /// A record whose name ends at the last byte of a page followed by an inaccessible page: reading the name in
    /// place works; copying the declared 256-byte field would fault (this test then crashes).
    @Test func aRecordEndingAtAnUnmappedPageIsReadInPlace() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let mapping = try #require(
            mmap(nil, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0).flatMap {
                $0 == MAP_FAILED ? nil : $0
            })
        defer { munmap(mapping, 2 * page) }
        #expect(mprotect(mapping + page, page, PROT_NONE) == 0)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        let name: [UInt8] = Array("abcd".utf8) + [0]
        // The record starts 8-aligned so that its name's NUL is the page's last byte.
        let start = (page - nameOffset - name.count) & ~7
        let padding = page - (start + nameOffset + name.count)
        let record = (mapping + start).bindMemory(to: dirent.self, capacity: 1)
        record.pointee.d_type = UInt8(DT_REG)
        let nameStart = mapping + start + nameOffset + padding
        name.withUnsafeBytes { nameStart.copyMemory(from: $0.baseAddress!, byteCount: name.count) }
        if padding > 0 { memset(mapping + start + nameOffset, 0x78, padding) }  // "x" before "abcd"
        let entry = DirectoryEntry(record)
        #expect(entry.name == String(repeating: "x", count: padding) + "abcd")
        #expect(entry.type == UInt8(DT_REG) && !entry.isDotOrDotDot)
    }

    /// Every name a directory holds, as `readdir` gives it: short and 255-byte names, dot-names that are not "." or
    /// "..", a name that is not UTF-8 (raw bytes kept), and a subdirectory's type.
    @Test func namesAndTypesOfARealDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "dirent-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let names: [[CChar]] = ["a", "..a", ".x", String(repeating: "n", count: 255)].map { Array($0.utf8CString) }
            + [[CChar(bitPattern: 0xff), 0x41, 0]]
        let fd = open(dir, O_RDONLY | O_DIRECTORY)
        #expect(fd >= 0)
        for name in names { #expect(close(openat(fd, name, O_CREAT | O_WRONLY, 0o600)) == 0) }
        #expect(mkdirat(fd, "sub", 0o700) == 0)
        let stream = try #require(fdopendir(fd))
        defer { closedir(stream) }
        var seen: [[CChar]: UInt8] = [:]
        var dots = 0
        while let record = readdir(stream) {
            let entry = DirectoryEntry(record)
            if entry.isDotOrDotDot {
                dots += 1
            } else {
                seen[entry.rawName] = entry.type
            }
        }
        #expect(dots == 2)
        #expect(Set(seen.keys) == Set(names + [Array("sub".utf8CString)]))
        let subType = seen[Array("sub".utf8CString)]
        #expect(subType == UInt8(DT_DIR) || subType == UInt8(DT_UNKNOWN))
    }
}
