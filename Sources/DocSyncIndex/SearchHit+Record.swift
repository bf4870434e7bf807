extension SearchHit {
    /// The hit of the derived index `index`'s `record`: its page and fragment resolved as `DocsetEntries` resolves
    /// them (`EntryResolver`), so a hit and the entry it names agree.
    init(_ record: NameTable.Record, in index: DerivedIndex, match: MatchKind) {
        let resolved = EntryResolver.resolve(record.location, layout: index.layout)
        self.init(
            name: record.name, type: index.typeNames[record.type] ?? "", docset: index.docset.name,
            version: index.docset.version, url: resolved.url(docsetPath: index.docset.path), match: match,
            page: resolved.page, fragment: resolved.fragment, rawType: index.rawTypeNames[record.type] ?? "")
    }
}
