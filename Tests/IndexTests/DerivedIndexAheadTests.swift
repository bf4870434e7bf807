import DocSyncIndex
import Foundation
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
}
