import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A private copy of a staged docset's index files, shaped as a docset (`<folder>/Contents/Resources/docSet.dsidx`,
/// with its `-wal` / `-journal` when present), in `<state>/index/.snapshot-RANDOM`: the derived index is built from
/// it while the installer completes the staged index for Zeal (`ZealPreparation` writes that file: SQLite's locks
/// would make the two wait for each other, and the file changes under a reader). Its rows are the staged index's:
/// Zeal's preparation adds an index and a view, or checkpoints a WAL, and changes no entry. Copying 9 MB (120k
/// entries) from the page cache takes milliseconds. A leftover of a killed run is removed with the other
/// dot-folders of `<state>/index` (`DocsetIndex.removeUnused`).
package struct IndexSnapshot: Sendable {
    /// The copy, to read as a docset.
    package let docset: IndexedDocset
    private let folder: String

    /// Copies the index files of `staged` (read through its `Contents/Resources`, no link followed below it).
    package init(of staged: IndexedDocset, stateDirectory: String) throws(DocsetIndexError) {
        let folder = "\(stateDirectory)/index/.snapshot-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try FileManager.default.createDirectory(atPath: "\(folder)/Contents", withIntermediateDirectories: true)
        } catch {
            throw .io(staged.name, "cannot create \(folder): \(error)")
        }
        do throws(DocsetIndexError) {
            let resources = try SourceIndex.openResources(staged)
            defer { close(resources) }
            try SourceIndex.copySidecars(staged, from: resources, to: "\(folder)/Contents/Resources")
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        self.folder = folder
        docset = IndexedDocset(name: staged.name, version: nil, path: folder)
    }

    /// Deletes the copy.
    package func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
