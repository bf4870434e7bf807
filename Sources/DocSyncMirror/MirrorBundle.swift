import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The published tree as one plain tar file (ustar, regular files only) for air-gapped hosts: `manifest.lock`
/// first, then the documents, then the archives. Written and read here rather than through libarchive (which
/// DocSyncInstall wraps for hostile input): the format is fixed, docsync writes it itself, streams archives of any
/// size in 1 MiB blocks, and the reader accepts only the tree's own names (no links, no `..`, no absolute paths).
package enum MirrorBundle {
    /// The tree's files, relative to the mirror folder, in bundle order: the documents, and the archives `archives`
    /// names by digest (the manifest's; nil: every archive in the tree, retired ones in their grace period too).
    package static func files(in directory: String, archives wanted: Set<String>? = nil) throws(MirrorError)
        -> [String]
    {
        do throws(SystemError) {
            let root = try SafeDirectory.open(directory)
            var names = [MirrorDocuments.manifestPath, MirrorDocuments.cataloguePath, MirrorDocuments.atomPath]
            names = names.filter { root.regularFileSize($0) != nil }
            let feeds = try root.directory("feeds")
            names += listing(feeds).filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted()
                .map { "feeds/\($0)" }
            if listing(feeds).contains("zeal") {
                let zeal = try feeds.directory("zeal")
                names += listing(zeal).filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.sorted()
                    .map { "feeds/zeal/\($0)" }
            }
            let archives = try root.directory("archives")
            for digest in listing(archives).filter(MirrorPublisher.isDigest).sorted()
            where wanted?.contains(digest) ?? true {
                let folder = try archives.directory(digest)
                names += listing(folder).filter { !$0.hasPrefix(".") }.sorted().map { "archives/\(digest)/\($0)" }
            }
            return names
        } catch {
            throw .system(error)
        }
    }

    /// Entry names of a folder of the tree (no `.`/`..`); empty when it cannot be listed.
    static func listing(_ folder: SafeDirectory) -> [String] { ((try? folder.entries()) ?? []).map(\.name) }

    /// Writes `files` of `directory` to `output` (a temporary name renamed into place when complete).
    package static func write(directory: String, files: [String], to output: String) throws(MirrorError) {
        let temporary = output + ".part"
        let out = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if out < 0 { throw .system("open", temporary, errno: errno) }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        for name in files {
            let path = "\(directory)/\(name)"
            let input = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
            if input < 0 { throw .system("open", path, errno: errno) }
            defer { close(input) }
            var st = stat()
            guard fstat(input, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
                throw .bundle(path, "not a regular file")
            }
            let size = Int64(st.st_size)
            try writeAll(out, try header(name: name, size: size, path: path), temporary)
            var left = size
            while left > 0 {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, min($0.count, Int(left))) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { throw .system("read", path, errno: count < 0 ? errno : EIO) }
                try writeAll(out, Array(buffer[0..<count]), temporary)
                left -= Int64(count)
            }
            let padding = Int((512 - size % 512) % 512)
            if padding > 0 { try writeAll(out, [UInt8](repeating: 0, count: padding), temporary) }
        }
        try writeAll(out, [UInt8](repeating: 0, count: 1024), temporary)
        if fsync(out) != 0 { throw .system("fsync", temporary, errno: errno) }
        if rename(temporary, output) != 0 { throw .system("rename", output, errno: errno) }
    }

    /// Unpacks a bundle into `directory` (created; must not hold another tree), accepting only the tree's names.
    package static func unpack(_ bundle: String, into directory: String) throws(MirrorError) {
        let opened: (fd: Int32, size: Int64)?
        do throws(SystemError) { opened = try RegularFile.open(bundle, followSymlink: true) } catch {
            throw .system("open", bundle, errno: error.code)
        }
        guard let input = opened?.fd else { throw .system("open", bundle, errno: ENOENT) }
        defer { close(input) }
        let root: SafeDirectory
        do { root = try SafeDirectory.open(directory, create: true) } catch { throw .system(error) }
        var block = [UInt8](repeating: 0, count: 512)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            try readExactly(input, &block, 512, bundle)
            if block.allSatisfy({ $0 == 0 }) { return }
            let (name, size) = try parseHeader(block, bundle)
            let parts = name.split(separator: "/").map(String.init)
            let folders: [String]
            switch parts.count {
            case 1
            where [MirrorDocuments.manifestPath, MirrorDocuments.cataloguePath, MirrorDocuments.atomPath]
                .contains(parts[0]):
                folders = []
            case 2 where parts[0] == "feeds" && parts[1].hasSuffix(".xml") && safe(parts[1]):
                folders = ["feeds"]
            case 3 where parts[0] == "feeds" && parts[1] == "zeal" && parts[2].hasSuffix(".xml") && safe(parts[2]):
                folders = ["feeds", "zeal"]
            case 3 where parts[0] == "archives" && MirrorPublisher.isDigest(parts[1]) && safe(parts[2]):
                folders = ["archives", parts[1]]
            default: throw .bundle(bundle, "unexpected entry \"\(name)\" (not a docsync mirror bundle)")
            }
            var folder = root
            do { for component in folders { folder = try folder.directory(component, create: true) } } catch {
                throw .system(error)
            }
            let file = parts.last!
            let out = openat(folder.fd, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if out < 0 { throw .system("openat", folder.childPath(file), errno: errno) }
            defer { close(out) }
            var left = size
            while left > 0 {
                let want = Int(min(Int64(buffer.count), left))
                try readExactly(input, &buffer, want, bundle)
                try writeAll(out, Array(buffer[0..<want]), folder.childPath(file))
                left -= Int64(want)
            }
            let padding = Int((512 - size % 512) % 512)
            if padding > 0 { try readExactly(input, &buffer, padding, bundle) }
        }
    }

    static func safe(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.utf8.contains(0)
    }

    static func header(name: String, size: Int64, path: String) throws(MirrorError) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        var prefix = ""
        var short = name
        if name.utf8.count > 100, let slash = name.lastIndex(of: "/") {
            prefix = String(name[..<slash])
            short = String(name[name.index(after: slash)...])
        }
        guard short.utf8.count <= 100, prefix.utf8.count <= 155 else { throw .bundle(path, "name too long for a tar") }
        func put(_ text: String, _ offset: Int) { for (i, b) in text.utf8.enumerated() { block[offset + i] = b } }
        put(short, 0)
        put("0000644\0", 100)
        put("0000000\0", 108)
        put("0000000\0", 116)
        put(String(format: "%011llo\0", size), 124)
        put("14400000000\0", 136)
        put("        ", 148)
        block[156] = 0x30  // regular file
        put("ustar\0" + "00", 257)
        put(prefix, 345)
        let sum = block.reduce(0) { $0 + Int($1) }
        put(String(format: "%06o\0 ", sum), 148)
        return block
    }

    static func parseHeader(_ block: [UInt8], _ bundle: String) throws(MirrorError) -> (String, Int64) {
        func field(_ offset: Int, _ length: Int) -> String {
            String(decoding: block[offset..<offset + length].prefix { $0 != 0 }, as: UTF8.self)
        }
        var stored = block
        for i in 148..<156 { stored[i] = 0x20 }
        let sum = stored.reduce(0) { $0 + Int($1) }
        guard field(257, 5) == "ustar", block[156] == 0x30 || block[156] == 0,
            Int(field(148, 8).trimmingCharacters(in: .whitespaces), radix: 8) == sum,
            let size = Int64(field(124, 12).trimmingCharacters(in: .whitespaces), radix: 8), size >= 0
        else { throw .bundle(bundle, "damaged or not a docsync mirror bundle (bad tar header)") }
        let prefix = field(345, 155)
        let name = prefix.isEmpty ? field(0, 100) : "\(prefix)/\(field(0, 100))"
        return (name, size)
    }

    static func readExactly(_ fd: Int32, _ buffer: inout [UInt8], _ count: Int, _ path: String) throws(MirrorError) {
        var offset = 0
        while offset < count {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, count - offset) }
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw .system("read", path, errno: errno) }
            if n == 0 { throw .bundle(path, "truncated") }
            offset += n
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8], _ path: String) throws(MirrorError) {
        do { try LinuxFS.writeAll(fd, bytes, path: path) } catch { throw .system(error) }
    }
}
