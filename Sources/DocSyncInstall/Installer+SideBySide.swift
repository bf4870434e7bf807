import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// Installs the version the docset `name` points at now again, as the docset `copyName` titled `title` (a
    /// version kept side by side: `<root>/<copyName>.docset`, whose `meta.json` names it so Zeal, which keys docsets
    /// by name, loads both), through the normal atomic install: the version's tree is packed into `scratch` (a
    /// folder outside the root; the tarix layout installs its own `tarix.tgz`), with the same version, revision,
    /// layout, host record and catalogue members. `name` itself is left as it is.
    package func copy(name: String, as copyName: String, title: String, scratch: String) async throws(InstallError)
        -> InstallRecord
    {
        guard let current = try installedDocsets().first(where: { $0.name == name }) else {
            throw .notInstalled(name)
        }
        let (found, folder) = try reinstallRequest(current)
        var request = found
        request.name = copyName
        request.title = title
        if current.layout == .tarix {
            return try await install(archive: "\(current.path)/Contents/Resources/tarix.tgz", as: request)
        }
        let packed = "\(scratch)/side-by-side-\(VersionStore.versionName(for: copyName)).tgz"
        try await onThread("docsync-copy") { () throws(InstallError) in
            try Self.pack(folder, as: "\(copyName).docset", to: packed)
        }
        defer { unlink(packed) }
        return try await install(archive: packed, as: request)
    }
}
