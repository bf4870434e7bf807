internal import DocSyncInstall
import Synchronization

/// One archive installed by hand as `<root>/<NAME>.docset` (`docsync install`), outside any sync: the installer
/// sync uses, with its tree preparation and tarix store, behind a package-level API so the CLI needs no stage module.
package struct ArchiveInstall: Sendable {
    /// Why an archive was not installed; ``description`` is the installer's own message.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, as far as the caller's exit status cares.
        package enum Kind: Sendable {
            /// The docset name is not a safe folder name.
            case invalidName
            /// The archive was refused: an unsafe entry, unreadable, not a docset.
            case rejected
            /// Anything else (I/O, free space, a foreign folder in the way).
            case io
        }

        package var kind: Kind
        package var description: String
    }

    private let installer: Installer

    /// An installer for `root` that keeps a replaced version `gracePeriod` for readers.
    package init(root: String, gracePeriod: Duration) {
        var configuration = InstallConfiguration()
        configuration.gracePeriod = gracePeriod
        installer = Installer(
            root: root, configuration: configuration, prepareTree: SyncEngine.prepareTree,
            tarixStore: SyncEngine.tarixStore)
    }

    /// Installs `archive` (format detected from its content) as `name`, recording the given metadata.
    package func install(
        archive: String, name: String, title: String?, version: String?, revision: String?,
        layout: InstalledDocset.Layout
    ) async throws(Failure) -> InstalledDocset {
        var request = InstallRequest(name: name, title: title, version: version, revision: revision)
        request.layout = layout
        do {
            return InstalledDocset(try await installer.install(archive: archive, as: request))
        } catch {
            let kind: Failure.Kind
            if case .invalidName = error {
                kind = .invalidName
            } else {
                kind = error.isArchiveRejection ? .rejected : .io
            }
            throw Failure(kind: kind, description: "\(error)")
        }
    }

    /// Builds the text index of `installed` in `stateDirectory` (after it is published); returns warnings (pages
    /// left out, or why no index was built).
    package func buildTextIndex(_ installed: InstalledDocset, stateDirectory: String) async -> [String] {
        let warnings = Mutex<[String]>([])
        await SyncEngine.buildTextIndex(SyncEngine.indexed(installed), stateDirectory: stateDirectory) { event in
            if case .warning(_, let message) = event { warnings.withLock { $0.append(message) } }
        }
        return warnings.withLock { $0 }
    }

    /// Waits for the work the install left behind (the replaced version's removal after the grace period).
    package func waitForBackgroundWork() async {
        await installer.waitForBackgroundWork()
    }
}
