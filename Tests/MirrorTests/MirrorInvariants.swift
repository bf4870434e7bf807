import DocSync
import DocSyncFeed
import DocSyncMirror
import DocSyncSupport
import Foundation
import TestSupport

/// What a reader of the mirror may rely on at every instant: every document parses, and every archive any of them
/// names under the mirror's base URL is there, complete (its SHA-256 and size are the manifest's).
enum MirrorInvariants {
    struct Broken: Error, CustomStringConvertible { let description: String }

    static func check(_ directory: String, baseURL: String) throws {
        let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        var named: Set<String> = []
        let feeds = (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/feeds")) ?? []
        var documents = feeds.filter { $0.hasSuffix(".xml") && !$0.hasPrefix(".") }.map { "feeds/\($0)" }
        documents += [MirrorDocuments.atomPath, MirrorDocuments.cataloguePath, MirrorDocuments.manifestPath]
        for document in documents {
            guard let text = try? String(contentsOfFile: "\(directory)/\(document)", encoding: .utf8) else {
                if document == MirrorDocuments.manifestPath || document.hasPrefix("feeds/") {
                    throw Broken(description: "\(document) unreadable")
                }
                continue
            }
            if document.hasSuffix(".xml") || document.hasSuffix(".atom") {
                _ = try FeedParser.parse(bytes: Array(text.utf8), documentURL: base + document)
            }
            var rest = Substring(text)
            while let range = rest.range(of: base + "archives/") {
                let tail = rest[range.upperBound...]
                let path = tail.prefix { !"<\"".contains($0) }
                named.insert("archives/" + path)
                rest = tail
            }
        }
        let manifest = try LockFile.load("\(directory)/\(MirrorDocuments.manifestPath)")
        let sizes = Dictionary(manifest.docsets.map { ($0.sha256, $0.size) }, uniquingKeysWith: { a, _ in a })
        for path in named {
            let full = "\(directory)/\(path)"
            guard let data = FileManager.default.contents(atPath: full) else {
                throw Broken(description: "a document names \(path), which is missing")
            }
            let digest = path.split(separator: "/")[1]
            guard SHA256.hash(data).description == digest else { throw Broken(description: "\(path) is not whole") }
            if let size = sizes[String(digest)], size != Int64(data.count) {
                throw Broken(description: "\(path) has \(data.count) bytes, the manifest says \(size)")
            }
        }
        if named.isEmpty { throw Broken(description: "no document names an archive") }
    }
}
