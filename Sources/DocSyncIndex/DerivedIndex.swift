import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One docset's derived index, open for searching: its `names.bin`, mapped read-only.
///
/// `@unchecked Sendable`: every stored property is `let`, and `NameTable` is safe to share (see there).
final class DerivedIndex: @unchecked Sendable {
    let docset: IndexedDocset
    let names: NameTable
    /// Type id → normalised type name.
    let typeNames: [UInt16: String]
    /// Type id → the type as the index spells it (several ids may share one normalised name).
    let rawTypeNames: [UInt16: String]
    let entryCount: Int
    /// The docset's document folders, read when the index is opened (version folders do not change).
    let layout: DocsetLayout

    private init(docset: IndexedDocset, names: NameTable, meta: [String: String]) {
        self.docset = docset
        self.names = names
        typeNames = NameTable.typeNames(meta)
        rawTypeNames = NameTable.typeNames(meta, prefix: "raw:")
        entryCount = names.count
        layout = DocsetLayout.read(docsetPath: docset.path)
    }

    /// The folder name of `docset`'s derived index: its version folder's name when docsync installed it, else
    /// `ext-` and a hash of its path.
    static func key(for docset: IndexedDocset) -> String {
        let parts = docset.path.split(separator: "/")
        if parts.count >= 3, parts[parts.count - 2] == "versions", parts[parts.count - 3] == ".docsync" {
            return String(parts[parts.count - 1])
        }
        return "ext-" + String(SHA256.hash(Array(docset.path.utf8)).description.prefix(24))
    }

    /// What the derived index was built from: size, mtime and inode of `docSet.dsidx` and of its `-wal`.
    static func sourceSignature(_ docset: IndexedDocset) throws(DocsetIndexError) -> String {
        let resources = try SourceIndex.openResources(docset)
        defer { close(resources) }
        var parts: [String] = []
        for name in ["docSet.dsidx", "docSet.dsidx-wal"] {
            var st = stat()
            if fstatat(resources, name, &st, AT_SYMLINK_NOFOLLOW) != 0 {
                parts.append("\(name):-")
                continue
            }
            parts.append("\(name):\(st.st_size):\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec):\(st.st_ino)")
        }
        return parts.joined(separator: ";")
    }

    /// Opens the derived index of `docset` in `indexFolder`, building it first when it is missing or stale; its scan
    /// masks stay mapped between searches while `masks` has room for them.
    static func open(
        _ docset: IndexedDocset, indexFolder: String, maxEntries: Int, masks: MaskBudget = MaskBudget(bytes: .max)
    ) throws(DocsetIndexError)
        -> DerivedIndex
    {
        let key = key(for: docset)
        let source = try sourceSignature(docset)
        if let index = try? load(docset, folder: "\(indexFolder)/\(key)", source: source, masks: masks) { return index }
        _ = try DerivedIndexBuilder.build(
            docset, key: key, source: { source }, indexFolder: indexFolder, maxEntries: maxEntries)
        do {
            guard let index = try load(docset, folder: "\(indexFolder)/\(key)", source: source, masks: masks) else {
                throw DocsetIndexError.io(docset.name, "the derived index changed while it was opened")
            }
            return index
        } catch let error as DocsetIndexError {
            throw error
        } catch {
            throw .io(docset.name, "\(indexFolder)/\(key): \(error)")
        }
    }

    /// Nil when the folder is missing, incomplete, of another layout or built from another source.
    private static func load(_ docset: IndexedDocset, folder: String, source: String, masks: MaskBudget) throws
        -> DerivedIndex?
    {
        guard let names = NameTable(path: "\(folder)/names.bin", masks: masks), let meta = names.meta(),
            meta["layout"] == NameTable.layoutVersion, meta["source"] == source, meta["entries"] == String(names.count)
        else { return nil }
        names.release()  // the meta read through the mapping; searching reads masks and names in place, or `pread`s
        return DerivedIndex(docset: docset, names: names, meta: meta)
    }
}
