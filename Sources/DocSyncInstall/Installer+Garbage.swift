import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

extension Installer {
    /// Under the root's lock: moves crash leftovers to the trash, moves versions whose grace period has passed there
    /// too, and empties it — before returning (a sync calls this at its start, for what a killed run left, and at
    /// its end). Versions still in their grace period are kept: a reader may hold one. Nothing happens when the root
    /// does not exist.
    package func collectGarbage() async throws(InstallError) {
        try await onThread("docsync-garbage") { () throws(InstallError) in
            guard (try? SafeDirectory.open(self.root)) != nil else { return }
            let store = try VersionStore(root: self.root)
            store.replaceForeign = self.configuration.replaceForeign
            store.changesKeep = self.configuration.changesKeep
            try store.lock()
            try store.recover()
            _ = try store.collectExpired(grace: self.configuration.gracePeriod)
            let fd = dup(store.trash.fd)
            if fd >= 0 { TreeRemover.emptyDirectory(fd) }
        }
    }

    /// Bytes in `<root>/.docsync/trash` (what the next run deletes). Takes no lock.
    package func trashBytes() -> Int64 {
        guard let root = try? SafeDirectory.open(root), let state = try? root.existingDirectory(VersionStore.stateName),
            let trash = try? state.existingDirectory("trash")
        else { return 0 }
        return trash.allocatedBytes()
    }
}
