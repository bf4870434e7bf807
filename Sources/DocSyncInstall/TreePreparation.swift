import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A step the installer runs on a staged docset after extraction and validation, before `meta.json` is written and
/// the version is made read-only and published (docsync uses it to complete `docSet.dsidx` for Zeal, without this
/// module knowing SQLite). It receives the staged docset folder's descriptor and its path (for messages), may change
/// files inside it, and returns the names of the changes it made (recorded as `prepared` in meta.json's docsync
/// record). Throwing fails the install; nothing is published.
public typealias TreePreparation = @Sendable (_ docsetFD: Int32, _ path: String) throws -> [String]

extension Installer {
    /// Runs `prepareTree` on the staged docset; nil when there is none.
    func prepare(_ staging: DirectoryHandle) throws(InstallError) -> [String]? {
        guard let prepareTree else { return nil }
        do {
            return try prepareTree(staging.fd, staging.path)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .io(
                SystemError("prepare", path: "\(staging.path)/Contents/Resources/docSet.dsidx: \(error)", code: EIO))
        }
    }
}
