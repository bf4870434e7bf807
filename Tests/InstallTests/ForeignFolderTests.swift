import DocSync
import DocSyncInstall
import Foundation
import TestSupport
import Testing

/// A `NAME.docset` docsync did not create is never replaced or deleted silently.
@Suite(.timeLimit(.minutes(10))) struct ForeignFolderTests {
    /// A user's own `Fixture.docset` with their notes in it.
    private func plantForeign(_ h: InstallHarness) throws {
        try FileManager.default.createDirectory(atPath: h.docsetPath, withIntermediateDirectories: true)
        try Data("my notes\n".utf8).write(to: URL(fileURLWithPath: "\(h.docsetPath)/notes.txt"))
    }

    private func archive(_ h: InstallHarness) throws -> String {
        let path = h.archive("new.tgz")
        try DocsetFixture.make(version: "new").writeArchive(to: path)
        return path
    }

    @Test func aForeignFolderIsReportedAndLeftAlone() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try plantForeign(h)
        do {
            _ = try await h.installer.install(archive: try archive(h), as: InstallRequest(name: h.name))
            Issue.record("replaced a folder docsync did not create")
        } catch {
            guard case InstallError.foreign = error else { throw error }
            #expect("\(error)".contains("docsync adopt") && "\(error)".contains("replace_foreign"), "\(error)")
        }
        #expect(try String(contentsOfFile: "\(h.docsetPath)/notes.txt", encoding: .utf8) == "my notes\n")
        await #expect(throws: InstallError.self) { try await h.installer.remove(name: h.name) }
        #expect(try String(contentsOfFile: "\(h.docsetPath)/notes.txt", encoding: .utf8) == "my notes\n")
    }

    @Test func replaceForeignMovesTheFolderAsideAndKeepsIt() async throws {
        let h = try InstallHarness()
        defer { h.dir.remove() }
        try plantForeign(h)
        let installer = Installer(
            root: h.root, configuration: InstallConfiguration(gracePeriod: .zero, replaceForeign: true))
        let installed = try await installer.install(
            archive: try archive(h), as: InstallRequest(name: h.name, version: "new"))
        #expect(installed.version == "new")
        // Garbage collection (grace period 0) runs, and the foreign folder is still kept.
        try await installer.collectGarbage()
        _ = try await installer.install(archive: try archive(h), as: InstallRequest(name: h.name))
        try await installer.collectGarbage()
        let aside = try FileManager.default.contentsOfDirectory(atPath: "\(h.root)/.docsync/foreign")
        #expect(aside.count == 1 && aside[0].hasPrefix("\(h.name)-"), "\(aside)")
        let notes = "\(h.root)/.docsync/foreign/\(aside[0])/notes.txt"
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "my notes\n")
    }
}
