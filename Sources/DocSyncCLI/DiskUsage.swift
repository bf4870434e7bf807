import DocSync
import DocSyncSupport

/// What one installed docset takes on disk: regular files and allocated bytes below its version folder (links not
/// followed), as `docsync status` reports them per layout.
struct DiskUsage: Encodable, Equatable {
    var name: String
    var layout: InstalledDocset.Layout
    var files: Int
    var bytes: Int64

    /// Walks `docset.path` (a docset whose folder cannot be read counts 0 files and 0 bytes).
    static func of(_ docset: InstalledDocset) -> DiskUsage {
        var files = 0
        var bytes: Int64 = 0
        if let folder = try? SafeDirectory.open(docset.path) {
            try? folder.walk { entry in
                if entry.isRegular { files += 1 }
                bytes += Int64(entry.status.st_blocks) * 512
            }
        }
        return DiskUsage(name: docset.name, layout: docset.layout, files: files, bytes: bytes)
    }
}
