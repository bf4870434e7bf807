import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A docset's search keywords as Zeal gathers them (`Docset::Docset` and `Docset::loadMetadata`, zealdocs/zeal
/// `src/libs/registry/docset.cpp`): `meta.json`'s `extra.keywords`, then `Info.plist`'s `DocSetPlatformFamily`,
/// `DashDocSetPluginKeyword`, `DashDocSetKeyword` and `DashDocSetFamily` (unless it contains `dashtoc`), then the
/// configuration's `[[docset]] keywords`; each lowercased, duplicates dropped (the first kept), empty ones dropped.
public enum DocsetKeywords {
    /// The `Info.plist` keys Zeal reads keywords from, in its order (`DashDocSetFamily` only without `dashtoc`).
    public static let plistKeys = [
        "DocSetPlatformFamily", "DashDocSetPluginKeyword", "DashDocSetKeyword", "DashDocSetFamily",
    ]

    /// The keywords of a docset whose `meta.json` `extra.keywords` are `meta`, whose `Info.plist` is `plist` (its
    /// top-level dictionary) and whose configuration adds `configured`.
    public static func merged(meta: [String], plist: [String: Any], configured: [String] = []) -> [String] {
        var keywords = meta
        for key in plistKeys {
            guard let value = plist[key] else { continue }
            let text = value as? String ?? "\(value)"
            if key == "DashDocSetFamily", text.contains("dashtoc") { continue }
            keywords.append(text)
        }
        return normalised(keywords + configured)
    }

    /// `keywords` lowercased, without empty ones and duplicates (the first kept).
    public static func normalised(_ keywords: [String]) -> [String] {
        var seen = Set<String>()
        return keywords.map { $0.lowercased() }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The keywords of the docset folder at `path` (its `meta.json` and `Contents/Info.plist`, or `info.plist`),
    /// plus `configured`; files that are missing or cannot be parsed give none. Reads at most 1 MiB of each.
    public static func read(docsetPath path: String, configured: [String] = []) -> [String] {
        var meta: [String] = []
        if let data = small("\(path)/meta.json"),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let extra = object["extra"] as? [String: Any], let list = extra["keywords"] as? [Any]
        {
            meta = list.compactMap { $0 as? String }
        }
        var plist: [String: Any] = [:]
        for name in ["Info.plist", "info.plist"] {
            guard let data = small("\(path)/Contents/\(name)") else { continue }
            plist = (try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]) ?? [:]
            break
        }
        return merged(meta: meta, plist: plist, configured: configured)
    }

    /// At most 1 MiB of the regular file at `path` (never a symlink, nor a FIFO that would block); nil otherwise.
    private static func small(_ path: String) -> Data? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), 1 << 20))
        var filled = 0
        while filled < bytes.count {
            let n = bytes[filled...].withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            filled += n
        }
        return Data(bytes[..<filled])
    }
}
