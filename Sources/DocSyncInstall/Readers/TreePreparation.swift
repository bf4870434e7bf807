import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A step the installer runs on a staged docset after extraction and validation, before `meta.json` is written and
/// the version is made read-only and published (docsync uses it to complete `docSet.dsidx` and the document folders
/// for Zeal, without this module knowing SQLite). It receives the staged docset folder's descriptor, its path (for
/// messages) and the `extra` members `meta.json` will carry, may change files inside the folder (through
/// descriptors), and returns what it did. Throwing fails the install; nothing is published.
package typealias TreePreparation =
    @Sendable (_ docsetFD: Int32, _ path: String, _ extra: [String: JSONValue]) throws -> PreparedTree

/// What a `TreePreparation` did to a staged docset.
package struct PreparedTree: Sendable, Equatable {
    /// The names of the changes made, recorded as `prepared` in meta.json's docsync record.
    package var steps: [String]
    /// Members set in meta.json's `extra` (e.g. Zeal's `indexFilePath`), over the catalogue's.
    package var extra: [String: JSONValue]

    /// Creates a result.
    package init(steps: [String] = [], extra: [String: JSONValue] = [:]) {
        self.steps = steps
        self.extra = extra
    }
}

extension Installer {
    /// Runs `prepareTree` on the staged docset; nil when there is none.
    func prepare(_ staging: DirectoryHandle, extra: [String: JSONValue]) throws(InstallError) -> PreparedTree? {
        guard let prepareTree else { return nil }
        do {
            return try prepareTree(staging.fd, staging.path, extra)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .io(SystemError("prepare", path: "\(staging.path): \(error)", code: EIO))
        }
    }
}
