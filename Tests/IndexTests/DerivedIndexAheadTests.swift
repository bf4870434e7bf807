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
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct DerivedIndexAheadTests {
    @Test func aFolderRenamedAtOnceIsStillIndexedAhead() async throws {
        let dir = try TemporaryDirectory("index-ahead")
        defer { dir.remove() }
        let versions = dir.appending("root/.docsync/versions")
        try FileManager.default.createDirectory(atPath: versions, withIntermediateDirectories: true)
        let state = dir.appending("state")
        for round in 0..<5 {
            let staged = try IndexFixture.dash("C", in: dir.appending("staging\(round)"), Samples.dash)
            let version = "C@mwyt2e41-20pu8\(round)"
            let ahead = DerivedIndexAhead(stateDirectory: state)
            ahead.start(PreparedVersion(name: "C", path: staged, version: version))
            try FileManager.default.moveItem(atPath: staged, toPath: "\(versions)/\(version)")  // the publish
            await ahead.finished()
            let names = "\(state)/index/\(version)/names.bin"
            #expect(FileManager.default.fileExists(atPath: names), "round \(round): nothing built ahead")
            let published = IndexedDocset(name: "C", version: nil, path: "\(versions)/\(version)")
            let inode = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(try DocsetIndex.prepare(published, stateDirectory: state) == Samples.dash.count)
            let after = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(inode != nil && after == inode, "round \(round): built again after the publish")
        }
    }

    /// Handed the tree when it is extracted, the build reads a copy of the index while Zeal's preparation writes the
    /// staged one (an index and a WAL checkpoint: the file's size and time change), and records the prepared file as
    /// its source: after the publish the index is current (not built again) and finds every entry. A version that
    /// is never prepared (a failed install) leaves nothing behind: no index, no copy.
    @Test func anIndexBuiltFromTheExtractedTreeIsCurrentAfterZealsPreparation() async throws {
        let dir = try TemporaryDirectory("index-ahead")
        defer { dir.remove() }
        let versions = dir.appending("root/.docsync/versions")
        try FileManager.default.createDirectory(atPath: versions, withIntermediateDirectories: true)
        let state = dir.appending("state")
        for round in 0..<3 {
            let staged = try IndexFixture.dash("C", in: dir.appending("staging\(round)"), Samples.dash)
            let version = "C@mwyt2e41-20pu9\(round)"
            let ahead = DerivedIndexAhead(stateDirectory: state)
            ahead.start(PreparedVersion(name: "C", path: staged, version: version, stage: .extracted))
            let folder = open(staged, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            #expect(try ZealPreparation.prepare(docsetFD: folder, path: staged) == ["zeal-index"])
            close(folder)
            ahead.start(PreparedVersion(name: "C", path: staged, version: version, stage: .prepared))
            try FileManager.default.moveItem(atPath: staged, toPath: "\(versions)/\(version)")  // the publish
            await ahead.finished()
            let names = "\(state)/index/\(version)/names.bin"
            let inode = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(inode != nil, "round \(round): nothing built ahead")
            let published = IndexedDocset(name: "C", version: nil, path: "\(versions)/\(version)")
            #expect(try DocsetIndex.prepare(published, stateDirectory: state) == Samples.dash.count)
            let after = try? FileManager.default.attributesOfItem(atPath: names)[.systemFileNumber] as? Int
            #expect(after == inode, "round \(round): built again after the publish")
            #expect(
                DocsetIndex(docsets: [published], stateDirectory: state).searchBlocking(SearchQuery("printf")).hits
                    .count == 2)
        }
        let failed = try IndexFixture.dash("C", in: dir.appending("failed"), Samples.dash)
        let ahead = DerivedIndexAhead(stateDirectory: state)
        ahead.start(PreparedVersion(name: "C", path: failed, version: "C@mwyt2e41-20pua0", stage: .extracted))
        await ahead.finished()
        let left = try FileManager.default.contentsOfDirectory(atPath: "\(state)/index").sorted()
        #expect(left == (0..<3).map { "C@mwyt2e41-20pu9\($0)" })
    }
}
