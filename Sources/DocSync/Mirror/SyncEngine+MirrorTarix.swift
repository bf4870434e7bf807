internal import DocSyncInstall
internal import DocSyncMirror
internal import DocSyncSupport
internal import DocSyncTarix
import Foundation

extension SyncEngine {
    /// The fleet mirror's tarix indexes (`<archive>.tarix`, Kapeli's convention: a gzip'd tar holding
    /// `tarixIndex.db`), built in `<staging>/complete/` for an archive already flushed at every record (indexed as it
    /// is, one inflate pass, every path passing extraction's rules); nil for any other archive — re-encoding would
    /// change the bytes the mirror serves under the publisher's digest.
    static func mirrorIndexer(staging: String) -> MirrorIndexer {
        { archiveFD, archiveName in
            let complete = try SafeDirectory.open(staging, create: true).directory("complete", create: true)
            let stem = "mirror-tarix-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
            let database = "\(stem).db"
            let package = "\(stem).tarix"
            defer {
                try? complete.unlink(database)
                try? complete.unlink(package)
            }
            do {
                _ = try TarixBuilder.indexAsIs(
                    source: archiveFD, sourceName: archiveName, indexPath: "\(complete.path)/\(database)")
            } catch let error as TarixError where error.isNotFlushed {
                return nil
            }
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(complete.path)/\(database)")))
            let writer = try ArchiveWriter(path: "\(complete.path)/\(package)", format: .ustar, filter: .gzip)
            try writer.add(ArchiveWriter.Entry("tarixIndex.db", .file(data: bytes)))
            try writer.close()
            return try [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(complete.path)/\(package)")))
        }
    }
}
