import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The step the installer runs on a staged docset after extraction and validation, before `meta.json` is written and
/// the version is made read-only and published: completes it for Zeal, its index (`ZealPreparation`), then its
/// document folders and start page (`ReaderLayoutPreparation`). It receives the staged docset folder's descriptor,
/// its path (for messages) and the `extra` members `meta.json` will carry, changes files inside the folder only
/// through descriptors, and returns what it did. A docset no reader could open fails the install
/// (`InstallError.unreadableDocset`); nothing is published.
enum ReaderPreparation {
    static func prepare(docsetFD fd: Int32, path: String, extra: [String: JSONValue]) throws -> PreparedTree {
        var steps = try ZealPreparation.prepare(docsetFD: fd, path: path)
        let outcome: ReaderLayoutPreparation.Outcome
        do {
            outcome = try ReaderLayoutPreparation.prepare(
                docsetFD: fd, path: path, catalogIndexFilePath: extra["indexFilePath"]?.string)
        } catch let unreadable as ReaderLayoutPreparation.Unreadable {
            throw InstallError.unreadableDocset(unreadable.message)
        }
        steps += outcome.steps
        return PreparedTree(steps: steps, extra: outcome.indexFilePath.map { ["indexFilePath": .string($0)] } ?? [:])
    }
}

/// What `ReaderPreparation` did to a staged docset.
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
    /// Runs `ReaderPreparation` on the staged docset.
    func prepare(_ staging: DirectoryHandle, extra: [String: JSONValue]) throws(InstallError) -> PreparedTree? {
        do {
            return try ReaderPreparation.prepare(docsetFD: staging.fd, path: staging.path, extra: extra)
        } catch let error as InstallError {
            throw error
        } catch {
            throw .io(SystemError("prepare", path: "\(staging.path): \(error)", code: EIO))
        }
    }
}
