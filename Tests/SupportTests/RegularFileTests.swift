import DocSyncSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `RegularFile`, the one reader of files docsync did not write, never blocks on a FIFO, never reads a
/// device, and refuses a file over its limit before reading it.
@Suite(.timeLimit(.minutes(10))) struct RegularFileTests {
    @Test func aFIFOIsRefusedWithoutBlocking() throws {
        let dir = try TemporaryDirectory("regular-file")
        defer { dir.remove() }
        #expect(mkfifo(dir.appending("meta.json"), 0o644) == 0)
        let folder = try SafeDirectory.open(dir.path)
        #expect(throws: SystemError.notRegularFile(dir.appending("meta.json"))) {
            try folder.readFile("meta.json", limit: 1 << 20)
        }
        #expect(throws: SystemError.notRegularFile(dir.appending("meta.json"))) {
            try RegularFile.read(path: dir.appending("meta.json"), limit: 1 << 20)
        }
        #expect(SystemError.notRegularFile("x").description.contains("not a regular file"))
    }

    @Test func aLinkToADeviceIsRefusedFollowedOrNot() throws {
        let dir = try TemporaryDirectory("regular-file")
        defer { dir.remove() }
        let link = dir.appending("Info.plist")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        let folder = try SafeDirectory.open(dir.path)
        #expect(throws: SystemError.symlink(dir.appending("Info.plist"))) { try folder.readFile("Info.plist") }
        #expect(throws: SystemError.notRegularFile(dir.appending("Info.plist"))) {
            try RegularFile.read(path: dir.appending("Info.plist"), limit: 1 << 20)
        }
        #expect(throws: SystemError.notRegularFile("/dev/zero")) { try RegularFile.read(path: "/dev/zero", limit: 1) }
        #expect(throws: SystemError.notRegularFile(dir.path, code: EISDIR)) {
            try RegularFile.read(path: dir.path, limit: 1)
        }
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let dir = try TemporaryDirectory("regular-file")
        defer { dir.remove() }
        let path = dir.appending("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        #expect(truncate(path, 64 << 30) == 0)  // sparse: 64 GiB that take no room
        #expect(throws: SystemError("read", path: path, code: EFBIG)) {
            try RegularFile.read(path: path, limit: 1 << 20)
        }
        try Data("{}".utf8).write(to: URL(fileURLWithPath: dir.appending("small.json")))
        #expect(try RegularFile.read(path: dir.appending("small.json"), limit: 2) == Array("{}".utf8))
        #expect(throws: SystemError("read", path: dir.appending("small.json"), code: EFBIG)) {
            try RegularFile.read(path: dir.appending("small.json"), limit: 1)
        }
        #expect(try RegularFile.read(path: dir.appending("missing"), limit: 1) == nil)
    }

    /// The bytes come back exactly at every size around the read's sizes (the stated size plus one, 64 KiB steps
    /// after), and a file larger than `fstat` said (a /proc file says 0) is read on to its end or refused past the
    /// limit.
    @Test(arguments: [0, 1, 4_095, 65_535, 65_536, 65_537, 200_001])
    func theBytesAreReadExactly(size: Int) throws {
        let dir = try TemporaryDirectory("regular-file")
        defer { dir.remove() }
        var generator = TestRandom.fromEnvironment("REGULAR_FILE_SEED")
        print("theBytesAreReadExactly(size: \(size)): seed \(generator.seed) (REGULAR_FILE_SEED)")
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let path = dir.appending("page.html")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try RegularFile.read(path: path, limit: size) == bytes)
        #expect(try RegularFile.read(path: path, limit: size + 70_000) == bytes)
        if size > 0 {
            #expect(throws: SystemError("read", path: path, code: EFBIG)) {
                try RegularFile.read(path: path, limit: size - 1)
            }
        }
    }

    @Test func aFileLargerThanItsStatedSizeIsReadToItsEnd() throws {
        let status = try #require(try RegularFile.read(path: "/proc/self/status", limit: 1 << 20))
        #expect(String(decoding: status, as: UTF8.self).contains("VmRSS"))
        #expect(throws: SystemError("read", path: "/proc/self/status", code: EFBIG)) {
            try RegularFile.read(path: "/proc/self/status", limit: 16)
        }
    }
}
