import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension VersionStore {
    /// Makes a real `NAME.docset` folder (made by Zeal or by hand) a docsync version without touching its contents:
    /// the folder becomes `.docsync/versions/NAME@adopted-ID` and `NAME.docset` a link to it, in one atomic step.
    ///
    /// A placeholder symlink `versions/NAME@adopted-ID` → `.docsync/versions/NAME@adopted-ID` (text relative to the
    /// root) is exchanged with the folder (`RENAME_EXCHANGE`): the link lands at `NAME.docset` and the folder at the
    /// placeholder's place, which is exactly where the link's text points — readers never see a gap. Without
    /// RENAME_EXCHANGE (EINVAL) the folder is renamed in first, then the link: a reader may miss it for an instant.
    /// Returns the version folder's name.
    ///
    /// When the folder's name is not the docset's (`Bash Docs.docset` adopted as `Bash`), it is renamed into
    /// versions/ and `Bash.docset` linked to it: the docset shows under its catalogue name from then on (refused when
    /// `Bash.docset` exists).
    func adopt(_ folderName: String, as docsetName: String) throws(InstallError) -> String {
        let folder = Self.linkName(folderName)
        guard let st = try root.status(folder), st.st_mode & S_IFMT == S_IFDIR else {
            throw .notInstalled(folderName)
        }
        let version = "\(docsetName)@adopted-\(Self.newID())"
        let target = "\(Self.stateName)/versions/\(version)"
        // The change's record, durable before the flip (`ChangeLogWriter`): the docset is new to the log.
        let tree = (try? root.base.existingDirectory(folder)).flatMap { Self.publisherVersion(in: $0) }
        let summary = VersionSummary(version: tree ?? "", digest: "")
        if folderName != docsetName {
            let linkName = Self.linkName(docsetName)
            if try root.status(linkName) != nil { throw root.error("symlinkat", linkName, code: EEXIST) }
            try recordFlip(docsetName, from: nil, to: version, summary: summary, durable: true)
            do throws(InstallError) {
                try root.rename(folder, to: versions, as: version)
                try versions.sync()
                if symlinkat(target, root.fd, linkName) != 0 { throw root.error("symlinkat", linkName) }
            } catch {
                if currentVersion(of: docsetName) != version { rollbackFlip() }
                throw error
            }
            settleFlip()
            try root.sync()
            return version
        }
        let linkName = folder
        if symlinkat(target, versions.fd, version) != 0 { throw versions.error("symlinkat", version) }
        try versions.sync()
        try recordFlip(docsetName, from: nil, to: version, summary: summary, durable: true)
        do throws(InstallError) {
            do {
                try LinuxFS.rename(from: version, in: versions.fd, to: linkName, in: root.fd, mode: .exchange)
            } catch  where error.code == EINVAL {
                try versions.unlink(version)
                try root.rename(linkName, to: versions, as: version)
                if symlinkat(target, root.fd, linkName) != 0 { throw root.error("symlinkat", linkName) }
            } catch {
                try? versions.unlink(version)
                throw InstallError.io(error)
            }
        } catch {
            if currentVersion(of: docsetName) != version { rollbackFlip() }
            throw error
        }
        settleFlip()
        try root.sync()
        try versions.sync()
        return version
    }
}
