extension DocsetEntries {
    /// Every entry of `docset`, read on the calling thread (which blocks) and handed to `body` in index order: what
    /// the install's content record (`docsync diff`) keeps of a version's index.
    package static func forEach(
        _ docset: IndexedDocset, scratch: String, _ body: (DocsetEntry) -> Void
    ) throws(DocsetIndexError) {
        try forEachBatch(docset, scratch: scratch) { batch in
            for i in 0..<batch.count { body(batch.entry(i)) }
        }
    }

    /// As `forEach(_:scratch:_:)`, each entry as bytes (``EntryBytes``, valid during the call only): no `String`
    /// per field.
    package static func forEachBytes(
        _ docset: IndexedDocset, scratch: String, _ body: (EntryBytes) -> Void
    ) throws(DocsetIndexError) {
        try forEachBatch(docset, scratch: scratch) { batch in
            for i in 0..<batch.count { body(batch.entryBytes(i)) }
        }
    }

    private static func forEachBatch(
        _ docset: IndexedDocset, scratch: String, _ body: (EntryBatch) -> Void
    ) throws(DocsetIndexError) {
        let size = 1024
        var reader = EntryRowReader(docsetPath: docset.path, layout: DocsetLayout.read(docsetPath: docset.path))
        var batch = EntryBatch(entries: size)
        _ = try SourceIndex.forEachRow(docset, scratchParent: scratch, maxEntries: .max, joinInMemory: true) {
            row throws(DocsetIndexError) in
            guard reader.append(row, to: batch) else { return }
            if batch.count == size {
                body(batch)
                batch = EntryBatch(entries: size)
            }
        }
        body(batch)
    }
}
