import DocSyncIndex
import DocSyncSupport
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// Makes a staged docset loadable by Zeal as Zeal's source defines it (`Docset::Docset`, zealdocs/zeal
/// `src/libs/registry/docset.cpp`), without moving a publisher's file. Runs at install after `ZealPreparation`,
/// before `meta.json` is written and the version made read-only:
///
/// - Zeal requires `Contents/Resources/Documents` and resolves every index path, and the start page, under it. For
///   Apple's `docsetutil` layout (pages in `Contents/Resources/Documentation/`, Core Data paths such as
///   `Documentation/help/api-cups.html` relative to `Contents/Resources`), docsync adds one relative link made
///   through directory descriptors: `Documents/Documentation -> ../Documentation` (creating an empty `Documents/`
///   when there is none: step `documents-folder`, then `documentation-link`), or `Documents -> Documentation` when
///   there is no `Documents/` and the index paths are relative to `Documentation/` (step `documents-link`).
/// - The start page: Zeal takes `Info.plist`'s `dashIndexFilePath`, else `meta.json`'s `extra.indexFilePath`, else
///   `index.html`, each only if it exists under `Documents/`. When none does, docsync picks
///   `Documentation/index.html` or the first indexed page that exists and returns it for `extra.indexFilePath`
///   (step `index-page`).
///
/// A docset no reader could open — an index that is not an SQLite docset index, or no `Documents/` Zeal could
/// enter — throws `Unreadable`, which fails the install with a message naming the path at fault.
package enum ReaderLayoutPreparation {
    /// What was done: step names for `meta.json`'s docsync record and the start page to record, if any.
    package struct Outcome: Sendable, Equatable {
        package var steps: [String] = []
        package var indexFilePath: String?
    }

    /// No reader could open the docset; `message` names the path at fault.
    package struct Unreadable: Error, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// How many indexed pages are tried for a start page when Zeal would find none.
    static let startPageCandidates = 64

    /// Prepares the staged docset open as `docsetFD` (`path` names it in messages). `catalogIndexFilePath` is the
    /// catalogue's `extra.indexFilePath` that `meta.json` will carry.
    package static func prepare(docsetFD: Int32, path: String, catalogIndexFilePath: String?) throws -> Outcome {
        let docset = try SafeDirectory.duplicating(docsetFD, path: path)
        guard let contents = try docset.existingDirectory("Contents"),
            let resources = try contents.existingDirectory("Resources")
        else { throw Unreadable(message: "\(path)/Contents/Resources: missing") }
        let index = try readIndex(resources)
        var outcome = Outcome()
        let layout = DocsetLayout.read(resources: resources.fd)
        // The tarix layout (Dash, Zeal main): the documents are in `tarix.tgz`, indexed by `tarixIndex.db`, and
        // there is no `Documents/` folder to complete (the installer checked the store against the archive).
        if layout.documents == .absent, resources.status("tarix.tgz") != nil, resources.status("tarixIndex.db") != nil {
            return outcome
        }
        if layout.documentation == .directory {
            if index.prefixed {
                if layout.documents == .absent {
                    _ = try resources.directory("Documents", create: true)
                    outcome.steps.append("documents-folder")
                }
                if let documents = try? resources.existingDirectory("Documents"),
                    !documents.exists("Documentation")
                {
                    try documents.makeSymlink("Documentation", target: "../Documentation")
                    outcome.steps.append("documentation-link")
                }
            } else if layout.documents == .absent {
                try resources.makeSymlink("Documents", target: "Documentation")
                outcome.steps.append("documents-link")
            }
        }
        // Zeal's `dir.cd("Documents")` follows a link; so does this check (only docsync's own can be there).
        let documents = openat(resources.fd, "Documents", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard documents >= 0 else {
            throw Unreadable(
                message: "\(path)/Contents/Resources/Documents: \(String(cString: strerror(errno))); Zeal cannot load "
                    + "a docset without it, and there is no Documentation/ folder to link")
        }
        defer { close(documents) }
        let plistPage = try contents.readFile("Info.plist", limit: 1 << 20).flatMap(dashIndexFilePath)
        if ![plistPage, catalogIndexFilePath, "index.html"].contains(where: {
            $0.map { exists($0, in: documents) } ?? false
        }) {
            var candidates = ["Documentation/index.html"]
            let layoutNow = DocsetLayout.read(resources: resources.fd)
            candidates += index.firstPages.map { EntryResolver.resolve($0, layout: layoutNow).page }
            if let page = candidates.first(where: { !$0.lowercased().hasPrefix("http") && exists($0, in: documents) }) {
                outcome.indexFilePath = page
                outcome.steps.append("index-page")
            }
        }
        return outcome
    }

    /// What the index says about the layout: whether its paths start with `Documentation/` (Apple's, relative to
    /// `Contents/Resources`) and its first pages.
    private struct IndexSummary {
        var prefixed: Bool
        var firstPages: [EntryLocation]
    }

    /// Whether the index in the open `Contents/Resources` folder `resources` gives Apple's paths relative to
    /// `Contents/Resources` (`Documentation/…`); false when it cannot be read. The text index of a tarix store names
    /// its `Documentation/` pages as the links this preparation makes for the extracted layout would.
    package static func indexIsPrefixed(_ resources: SafeDirectory) -> Bool {
        (try? readIndex(resources).prefixed) ?? false
    }

    private static func readIndex(_ resources: SafeDirectory) throws -> IndexSummary {
        let file = "\(resources.path)/docSet.dsidx"
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(
                path: "/proc/self/fd/\(resources.fd)/docSet.dsidx", configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                guard let format = try IndexFormat.detect(db) else {
                    throw Unreadable(
                        message: "\(file): neither a Dash searchIndex(name, type, path) table nor Core Data ZTOKEN "
                            + "tables; no reader can search it")
                }
                let prefixedSQL =
                    switch format {
                    case .dash:
                        "SELECT count(*) > 0 FROM (SELECT 1 FROM searchIndex WHERE path LIKE 'Documentation/%' "
                            + "OR path LIKE '/Documentation/%' OR path LIKE '<dash_entry_%>Documentation/%' LIMIT 1)"
                    case .coreData:
                        "SELECT count(*) > 0 FROM (SELECT 1 FROM zfilepath WHERE zpath LIKE 'Documentation/%' "
                            + "OR zpath LIKE '/Documentation/%' LIMIT 1)"
                    }
                let prefixed = try Bool.fetchOne(db, sql: prefixedSQL) ?? false
                var pages: [EntryLocation] = []
                let rows = try Row.fetchCursor(db, sql: format.entriesSQL + " LIMIT \(startPageCandidates)")
                while let row = try rows.next() {
                    guard let path = row[2] as String? else { continue }
                    pages.append(EntryLocation(rawPath: path, rawFragment: row[3] as String?))
                }
                return IndexSummary(prefixed: prefixed, firstPages: pages)
            }
        } catch let error as Unreadable {
            throw error
        } catch let error as DatabaseError {
            switch error.resultCode.primaryResultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                throw Unreadable(message: "\(file): not an SQLite database or corrupt; no reader can search it")
            default:
                throw error
            }
        }
    }

    /// Whether `page` exists under the open `Documents` folder, following links as Zeal's `QDir::exists` does.
    private static func exists(_ page: String, in documents: Int32) -> Bool {
        guard !page.isEmpty, !page.hasPrefix("/") else { return false }
        var st = stat()
        return fstatat(documents, page, &st, 0) == 0
    }

    /// `dashIndexFilePath` from an `Info.plist` (XML or binary).
    private static func dashIndexFilePath(_ bytes: [UInt8]) -> String? {
        let plist = try? PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [String: Any]
        return plist?["dashIndexFilePath"] as? String
    }
}
