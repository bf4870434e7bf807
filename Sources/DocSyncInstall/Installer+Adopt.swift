import DocSyncSupport
import Foundation

extension Installer {
    /// Takes over `<root>/<name>.docset`, a real folder another tool made, as an installed version: nothing in it
    /// changes; from now on it is replaced through the normal atomic path. Returns it as readers see it.
    public func adopt(name: String) async throws(InstallError) -> InstalledDocset {
        if let problem = InstallRequest.problem(with: name) { throw .invalidName(name, reason: problem) }
        let root = self.root
        let result: Result<Void, InstallError> = await withCheckedContinuation { continuation in
            WorkerThread.start(name: "docsync-adopt") {
                continuation.resume(
                    returning: Result { () throws(InstallError) in
                        let store = try VersionStore(root: root)
                        try store.lock()
                        try store.recover()
                        _ = try store.adopt(name)
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
