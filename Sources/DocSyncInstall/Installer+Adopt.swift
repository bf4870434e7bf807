import DocSyncSupport
import Foundation

extension Installer {
    /// Takes over `<root>/<folder>.docset`, a real folder another tool made, as the installed version of `name`
    /// (default: the folder's name): nothing in it changes; from now on it is replaced through the normal atomic
    /// path. Returns it as readers see it.
    package func adopt(folder: String, as name: String? = nil) async throws(InstallError) -> InstallRecord {
        let name = name ?? folder
        for text in [folder, name] {
            if let problem = InstallRequest.problem(with: text) { throw .invalidName(text, reason: problem) }
        }
        let root = self.root
        let keep = configuration.changesKeep
        let describeContent = self.describeContent
        let result: Result<Void, InstallError> = await withCheckedContinuation { continuation in
            WorkerThread.start(name: "docsync-adopt") {
                continuation.resume(
                    returning: Result { () throws(InstallError) in
                        let store = try VersionStore(root: root)
                        store.changesKeep = keep
                        store.describeContent = describeContent
                        try store.lock()
                        try store.recover()
                        _ = try store.adopt(folder, as: name)
                    })
            }
        }
        try result.get()
        let prefix = "\(name)@adopted-"
        guard
            let adopted = try installedDocsets().first(where: {
                ($0.path as NSString).lastPathComponent.hasPrefix(prefix)
            })
        else { throw .notInstalled(name) }
        return adopted
    }
}
