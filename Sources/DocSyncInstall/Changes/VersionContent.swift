import DocSyncIndex
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What `docsync diff` compares: per version folder, beside its summary, the version's pages with a digest of their
/// bytes and its index entries — hashes, not files — kept in `<root>/.docsync/changes/content/NAME@ID` for as long
/// as a kept record of the change log names the version, so a diff works after the version's files are pruned.
///
/// Text, written once at install (in the same durable step as the change's record) and never changed:
/// ```
/// docsync-content 1
/// P<TAB>DIGEST<TAB>PAGE                          one per document, sorted by PAGE's bytes
/// E<TAB>NAME<TAB>TYPE<TAB>RAW-TYPE<TAB>PAGE<TAB>#FRAGMENT   one per index entry, sorted by the line's bytes
/// ```
/// `DIGEST`: the first 32 hex digits of the page's SHA-256 (the same in both layouts: a docset kept extracted and
/// the same docset kept in a tarix store have equal records); `PAGE` relative to the documents folder, as
/// `DocsetEntry/page` is; the fragment field is empty when the entry has none. Fields percent-encode `%` and control
/// characters (as the log does), so no tab or newline hides in them. All `P` lines precede all `E` lines.
package struct VersionContent: Sendable, Equatable {
    static let folderName = "content"
    static let magic = "docsync-content 1"
    static let digestLength = 32

    /// One document: its path relative to the documents folder and the SHA-256 of its bytes (lowercase hex).
    package struct Page: Sendable, Equatable {
        package var path: String
        package var sha256: String

        package init(path: String, sha256: String) {
            self.path = path
            self.sha256 = sha256
        }
    }

    /// One index entry, as `DocsetEntry` carries it.
    package struct Entry: Sendable, Hashable {
        package var name: String
        package var type: String
        package var rawType: String
        package var page: String
        package var fragment: String?

        package init(name: String, type: String, rawType: String, page: String, fragment: String?) {
            self.name = name
            self.type = type
            self.rawType = rawType
            self.page = page
            self.fragment = fragment
        }

        var line: String {
            let fields = [name, type, rawType, page].map(ChangeRecord.escape)
            let last = fragment.map { "#" + ChangeRecord.escape($0) } ?? ""
            return "E\t" + fields.joined(separator: "\t") + "\t" + last
        }

        /// `line`'s bytes for the entry `bytes` (`EntryBytes`: the same text as the `DocsetEntry`) into `out`, without
        /// a `String` per field; false (and `out` left in any state) when a field has a byte other than printable
        /// ASCII or `%` (escaped, or not UTF-8 for sure): the caller builds the line from Strings then.
        static func line(_ bytes: EntryBytes, into out: inout [UInt8]) -> Bool {
            func plain(_ field: UnsafeBufferPointer<UInt8>) -> Bool {
                field.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "%") }
            }
            guard plain(bytes.name), plain(bytes.page), bytes.fragment.map(plain) ?? true else { return false }
            out.removeAll(keepingCapacity: true)
            out += [UInt8(ascii: "E"), 0x09]
            out += bytes.name
            out.append(0x09)
            out += ChangeRecord.escape(bytes.type).utf8
            out.append(0x09)
            out += ChangeRecord.escape(bytes.rawType).utf8
            out.append(0x09)
            out += bytes.page
            out.append(0x09)
            if let fragment = bytes.fragment {
                out.append(UInt8(ascii: "#"))
                out += fragment
            }
            return true
        }

        init?(line: ArraySlice<UInt8>) {
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count == 6, fields[0].elementsEqual("E".utf8) else { return nil }
            var text: [String] = []
            for field in fields[1...5] {
                guard let value = ChangeRecord.unescape(String(decoding: field, as: UTF8.self)) else { return nil }
                text.append(value)
            }
            let fragment = text[4].isEmpty ? nil : String(text[4].dropFirst())
            self.init(name: text[0], type: text[1], rawType: text[2], page: text[3], fragment: fragment)
        }
    }

    /// The documents (any order).
    package var pages: [Page]
    /// The index entries (any order; duplicates are kept once).
    package var entries: [Entry]

    package init(pages: [Page], entries: [Entry]) {
        self.pages = pages
        self.entries = entries
    }

    /// Opens the content record of the version folder `folder` under `root` for reading (every component without
    /// following a link); nil when the root, its log or the record does not exist. The caller closes it.
    package static func open(root: String, folder: String) throws(SystemError) -> Int32? {
        guard VersionStore.isVersionName(folder), let rootFolder = try? SafeDirectory.open(root),
            let state = try rootFolder.existingDirectory(VersionStore.stateName),
            let changes = try state.existingDirectory(ChangeLogFile.folderName),
            let contents = try changes.existingDirectory(folderName)
        else { return nil }
        return try contents.openRegularFile(folder)?.fd
    }

    /// The file's bytes: both sections sorted (in memory: for small records and tests).
    package func encoded() -> [UInt8] {
        var out: [UInt8] = []
        let writer = ContentWriter { out += $0 }
        let pageLines = ContentLines(keyOffset: Self.pageKeyOffset)
        let entryLines = ContentLines()
        // Without a spill folder nothing here does I/O: nothing throws.
        try? pages.forEach { (page) throws(SystemError) in
            try pageLines.append(Self.pageLine(path: page.path, sha256: page.sha256).utf8)
        }
        try? entries.forEach { (entry) throws(SystemError) in try entryLines.append(entry.line.utf8) }
        try? Self.write(pages: pageLines, entries: entryLines, to: writer)
        return out
    }

    /// Writes the file's bytes from its two sections (any order; sorted and written without repeated lines here).
    static func write(pages: ContentLines, entries: ContentLines, to out: ContentWriter) throws(SystemError) {
        try out.write("\(Self.magic)\n".utf8)
        try pages.write(sortedTo: out)
        try entries.write(sortedTo: out)
        try out.finish()
    }

    /// Where a page line's sort key starts: its page field (after `P<TAB>DIGEST<TAB>`).
    static let pageKeyOffset = 2 + digestLength + 1

    /// A page's line (without its newline).
    static func pageLine(path: String, sha256: String) -> String {
        // Every digest field as long (an unreadable file's manifest digest is a word): lines align for the merge.
        let digest = sha256.prefix(Self.digestLength)
        let padded = digest + String(repeating: "-", count: Self.digestLength - digest.count)
        return "P\t\(padded)\t\(ChangeRecord.escape(path))"
    }
}
