import DocSyncSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Builds a docset's derived search index in docsync's state folder (never inside the docset):
///
/// ```
/// <state>/index/<key>/names.bin   the lowercased names sorted bytewise (binary search, trigrams, masks), each
///                                 entry's display record and the meta data, in one file (layout in `NameTable`)
/// ```
/// `<key>` is the version folder's name (`NAME@ID`) for docsets docsync installed (immutable, so the key says it
/// all), or `ext-` and a hash of the folder's path for others. Its meta `source` records the size, modification time
/// and inode of `docSet.dsidx` and its `-wal`: a mismatch makes the index stale and it is rebuilt.
/// The folder is built under a dot-name and renamed into place, so a reader sees a complete index or none.
enum DerivedIndexBuilder {
    /// Builds the index of `docset` into `<indexFolder>/<key>`; returns its entry count. `source` (the meta's
    /// `source`) is asked for once the entries are read; nil: nothing is built (nil is returned).
    static func build(
        _ docset: IndexedDocset, key: String, source: () -> String?, indexFolder: String, maxEntries: Int
    ) throws(DocsetIndexError) -> Int? {
        let building = "\(indexFolder)/.build-\(key)-\(UInt64.random(in: 0...UInt64.max))"
        do {
            try FileManager.default.createDirectory(atPath: building, withIntermediateDirectories: true)
        } catch {
            throw .io(docset.name, "cannot create \(building): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: building) }

        let names = try NameTable.Builder(spillDirectory: building, docset: docset.name)
        var types: [String: UInt16] = [:]
        var normalised: [UInt16: String] = [:]
        let format = try SourceIndex.read(docset, scratchParent: indexFolder, maxEntries: maxEntries) {
            entry throws(DocsetIndexError) in
            let typeID: UInt16
            // One id per type as the index spells it (hits carry both spellings; filters match the normalised one).
            if let known = types[entry.rawType] {
                typeID = known
            } else {
                guard types.count < Int(UInt16.max) else {
                    throw .tooLarge(docset.name, "more than \(UInt16.max) entry types")
                }
                typeID = UInt16(types.count)
                types[entry.rawType] = typeID
                normalised[typeID] = entry.type
            }
            try names.append(entry.name, type: typeID, location: entry.location, docset: docset.name)
        }
        let count = names.count
        let written = try names.write(to: "\(building)/names.bin", docset: docset.name) { () -> [(String, String)]? in
            guard let source = source() else { return nil }
            var meta: [(String, String)] = [
                ("layout", NameTable.layoutVersion), ("source", source), ("format", format.rawValue),
                ("entries", String(count)), ("docset", docset.name),
            ]
            for (raw, typeID) in types.sorted(by: { $0.value < $1.value }) {
                meta.append(("type:\(typeID)", normalised[typeID] ?? raw))
                meta.append(("raw:\(typeID)", raw))
            }
            return meta
        }
        guard written else { return nil }
        try install(building, as: "\(indexFolder)/\(key)", docset: docset.name)
        return count
    }

    /// Renames the finished folder into place, moving a stale one aside first (readers keep what they opened).
    private static func install(_ building: String, as target: String, docset: String) throws(DocsetIndexError) {
        if rename(building, target) == 0 { return }
        guard errno == ENOTEMPTY || errno == EEXIST else {
            throw .io(docset, "rename \(building) -> \(target): \(String(cString: strerror(errno)))")
        }
        let aside = "\(building).old"
        if rename(target, aside) != 0 || rename(building, target) != 0 {
            throw .io(docset, "replace \(target): \(String(cString: strerror(errno)))")
        }
        try? FileManager.default.removeItem(atPath: aside)
    }
}
