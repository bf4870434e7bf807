import DocSyncIndex
import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import TestSupport
import Testing

@testable import DocSync
@testable import DocSyncInstall

/// The sync's early index build (`DerivedIndexAhead`) reads the staged tree through a descriptor opened when the
/// installer hands it over, so a publish that renames the folder at once (before the build's thread has read a
/// byte) still leaves the index built under the version's name: the sync does not build it again after the flip.
/// Built from the extracted tree, it is current once Zeal's preparation has changed the staged index.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct DerivedIndexAheadTests {
    /// Handed the tree when it is prepared, the build reads it through the descriptor (the rename comes at once).
    /// Handed it when it is extracted (`extracted`: the sync's case), the build reads a copy of the index while Zeal's
    /// preparation writes the staged one (an index: the file's size and time change) and records the prepared file
    /// as its source. Either way, after the publish the index is current (not built again) and finds every entry.
    @Test(arguments: [false, true]) func anIndexBuiltAheadIsCurrentAfterThePublish(fromExtracted: Bool) async throws {
        let dir = try TemporaryDirectory("index-ahead")
        defer { dir.remove() }
        let versions = dir.appending("root/.docsync/versions")
        try FileManager.default.createDirectory(atPath: versions, withIntermediateDirectories: true)
        let state = dir.appending("state")
        for round in 0..<4 {
            let staged = try IndexFixture.dash("C", in: dir.appending("staging\(round)"), Samples.dash)
            let version = "C@mwyt2e41-20pu8\(round)"
            let ahead = DerivedIndexAhead(stateDirectory: state)
            if fromExtracted {
                ahead.start(PreparedVersion(name: "C", path: staged, version: version, stage: .extracted))
                let folder = open(staged, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                #expect(try ZealPreparation.prepare(docsetFD: folder, path: staged) == ["zeal-index"])
                close(folder)
            }
            ahead.start(PreparedVersion(name: "C", path: staged, version: version, stage: .prepared))
            try FileManager.default.moveItem(atPath: staged, toPath: "\(versions)/\(version)")  // the publish
            await ahead.finished()
            let names = "\(state)/index/\(version)/names.bin"
            #expect(FileManager.default.fileExists(atPath: names), "round \(round): nothing built ahead")
            let published = IndexedDocset(name: "C", version: nil, path: "\(versions)/\(version)")
            let inode = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(try DocsetIndex.prepare(published, stateDirectory: state) == Samples.dash.count)
            let after = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(inode != nil && after == inode, "round \(round): built again after the publish")
            let hits = DocsetIndex(docsets: [published], stateDirectory: state).searchBlocking(SearchQuery("printf"))
            #expect(hits.hits.count == 2, "round \(round)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(state)/index").count == 4)  // no copies left
    }

    /// A version handed over when extracted and never prepared (its install failed) is not built: no index, and
    /// no copy of its index left in the state folder.
    @Test func anUnpreparedVersionLeavesNothing() async throws {
        let dir = try TemporaryDirectory("index-ahead")
        defer { dir.remove() }
        let failed = try IndexFixture.dash("C", in: dir.appending("failed"), Samples.dash)
        let state = dir.appending("state")
        let ahead = DerivedIndexAhead(stateDirectory: state)
        ahead.start(PreparedVersion(name: "C", path: failed, version: "C@mwyt2e41-20pua0", stage: .extracted))
        await ahead.finished()
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(state)/index").isEmpty)
    }
}
