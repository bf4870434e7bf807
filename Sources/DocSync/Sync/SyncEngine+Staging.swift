internal import DocSyncSupport

extension SyncEngine {
    /// Deletes a finished archive in `<staging>/complete/` — reached without following links; a symlink planted
    /// there is left alone (and was never written through: the downloader refuses it).
    func discardStagedArchive(_ path: String) {
        guard let staging = try? SafeDirectory.open(configuration.staging),
            let complete = try? staging.existingDirectory("complete"), path.hasPrefix(complete.path + "/")
        else { return }
        try? complete.unlink(String(path.dropFirst(complete.path.count + 1)))
    }
}
