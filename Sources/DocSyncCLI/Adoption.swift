import DocSync
import DocSyncSupport
import Foundation

/// `docsync adopt`: finds docset folders another tool (Zeal) made in a root and matches each to a catalogue entry.
package enum Adoption {
    /// A real `NAME.docset` folder and what identifies it.
    package struct Found: Sendable, Equatable {
        /// The folder name without `.docset`.
        package var folder: String
        /// From Zeal's `meta.json`, when present.
        package var metaName: String?
        package var metaFeedURL: String?
        package var metaVersion: String?
        /// `CFBundleName` from `Contents/Info.plist`.
        package var bundleName: String?

        package init(
            folder: String, metaName: String? = nil, metaFeedURL: String? = nil, metaVersion: String? = nil,
            bundleName: String? = nil
        ) {
            self.folder = folder
            self.metaName = metaName
            self.metaFeedURL = metaFeedURL
            self.metaVersion = metaVersion
            self.bundleName = bundleName
        }
    }

    /// The catalogue entry for a folder: by meta.json's name, then its feed URL (the entry with that feed, or the
    /// feed file's stem), then Info.plist's bundle name, then the folder name. Pure.
    package static func match(_ found: Found, in shelf: CatalogShelf) -> CatalogShelf.Offer? {
        var names: [String] = []
        if let name = found.metaName { names.append(name) }
        if let feed = found.metaFeedURL {
            if let offer = shelf.offer(feedURL: feed) { return offer }
            let stem = (feed.split(separator: "/").last.map(String.init) ?? "")
            if stem.hasSuffix(".xml") { names.append((String(stem.dropLast(4)).removingPercentEncoding) ?? stem) }
        }
        if let bundle = found.bundleName { names.append(bundle) }
        names.append(found.folder)
        for name in names {
            if case .found(let offer) = shelf.resolve(name) { return offer }
        }
        return nil
    }

    /// Every real `*.docset` folder in `root` (links — docsync's own — are skipped), sorted by name.
    package static func scan(root: String) throws -> [Found] {
        let fm = FileManager.default
        var result: [Found] = []
        for entry in try fm.contentsOfDirectory(atPath: root).sorted()
        where entry.hasSuffix(".docset") && !entry.hasPrefix(".") {
            let path = "\(root)/\(entry)"
            guard let type = try? fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType,
                type == .typeDirectory
            else { continue }
            var found = Found(folder: String(entry.dropLast(".docset".count)))
            let folder = try? SafeDirectory.open(path)
            if let data = (try? folder?.readFile("meta.json", limit: 1 << 20)).flatMap({ $0 }).map({ Data($0) }),
                let meta = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                found.metaName = meta["name"] as? String
                found.metaFeedURL = meta["feed_url"] as? String
                found.metaVersion = meta["version"] as? String
            }
            if let data = (try? folder?.existingDirectory("Contents")?.readFile("Info.plist", limit: 1 << 20))
                .flatMap({ $0 }).map({ Data($0) }),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            {
                found.bundleName = plist["CFBundleName"] as? String
            }
            result.append(found)
        }
        return result
    }
}
