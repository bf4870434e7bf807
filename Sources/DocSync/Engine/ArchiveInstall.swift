internal import DocSyncInstall
import Foundation
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
            /// The request cannot be carried out as asked (a side-by-side install over a docset without a version).
            case usage
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
            tarixStore: SyncEngine.tarixStore, describeContent: ContentScan.scan)
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
            throw Self.failure(error)
        }
    }

    /// Installs `archive` as version `version` of `name` kept side by side with the versions installed
    /// (``SideBySidePlan``): as `name` when it is the newest (the version `name` held is first installed again as
    /// `name@THAT_VERSION`), else as `name@version`; the same version again replaces that one. Returns the docset
    /// installed and the one moved aside, if any. When the install fails after a move, the moved copy is removed
    /// again: what was installed before is what stays.
    package func installSideBySide(
        archive: String, name: String, title: String?, version: String, revision: String?,
        layout: InstalledDocset.Layout
    ) async throws(Failure) -> (installed: InstalledDocset, moved: InstalledDocset?) {
        let installed: [InstalledDocset]
        do { installed = try installer.installedDocsets().map(InstalledDocset.init) } catch {
            throw Self.failure(error)
        }
        if let problem = SideBySidePlan.problem(name: name, installed: installed) {
            throw Failure(kind: .usage, description: problem)
        }
        let plan = SideBySidePlan.plan(name: name, version: version, title: title, installed: installed)
        var moved: InstalledDocset?
        if let demotion = plan.demotion {
            let scratch =
                NSTemporaryDirectory() + "docsync-side-by-side-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            do {
                try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
            } catch {
                throw Failure(kind: .io, description: "cannot create \(scratch): \(error)")
            }
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            do {
                moved = InstalledDocset(
                    try await installer.copy(name: name, as: demotion.name, title: demotion.title, scratch: scratch))
            } catch {
                throw Self.failure(error)
            }
        }
        do {
            let docset = try await install(
                archive: archive, name: plan.name, title: plan.title, version: version, revision: revision,
                layout: layout)
            return (docset, moved)
        } catch {
            if let moved { try? await installer.remove(name: moved.name) }
            throw error
        }
    }

    private static func failure(_ error: InstallError) -> Failure {
        if case .invalidName = error { return Failure(kind: .invalidName, description: "\(error)") }
        return Failure(kind: error.isArchiveRejection ? .rejected : .io, description: "\(error)")
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
