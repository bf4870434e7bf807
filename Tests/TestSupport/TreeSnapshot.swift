import DocSyncSupport
import Foundation

/// A snapshot of a directory tree for comparing two trees in tests: relative path → "dir 755", "file 644 <sha256>" or
/// "link <target>". (The installer's own record of a tree is DocSyncInstall's `TreeManifest`.)
package enum TreeSnapshot {
    package static func of(_ root: String, excluding excluded: Set<String> = ["meta.json"]) throws -> [String: String] {
        var manifest: [String: String] = [:]
        let fm = FileManager.default
        guard let walker = fm.enumerator(atPath: root) else { return [:] }
        while let relative = walker.nextObject() as? String {
            if excluded.contains(relative) { continue }
            let path = "\(root)/\(relative)"
            let attributes = try fm.attributesOfItem(atPath: path)
            let mode = String((attributes[.posixPermissions] as? Int) ?? 0, radix: 8)
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory: manifest[relative] = "dir \(mode)"
            case .typeSymbolicLink: manifest[relative] = "link \(try fm.destinationOfSymbolicLink(atPath: path))"
            case .typeRegular:
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                manifest[relative] = "file \(mode) \(SHA256.hash(data))"
            default: manifest[relative] = "other"
            }
        }
        return manifest
    }
}
