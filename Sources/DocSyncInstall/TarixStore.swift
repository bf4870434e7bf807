import DocSyncSupport

/// How an installed docset keeps its documents.
package enum InstallLayout: String, Sendable, Equatable, Codable, CaseIterable {
    /// Every file extracted (what released Zeal up to 0.8.x, dasht and `file://` browsers read).
    case extracted
    /// `Contents/Resources/Documents/` kept as an indexed archive (`Contents/Resources/tarix.tgz` and
    /// `tarixIndex.db`, read by Dash and Zeal's main branch); everything else extracted.
    case tarix
}

/// Builds a tarix store for the tarix layout (docsync wires `DocSyncTarix` in; this module knows no zlib): reads the
/// verified archive `archiveFD` (named `archiveName` in messages) from offset 0 and creates `tarix.tgz` and
/// `tarixIndex.db` in the staged docset's `Contents/Resources` folder (`resourcesFD`, `resourcesPath` for
/// messages). `publisherIndex`: a publisher's `tarixIndex.db` (unpacked from `<url>.tarix`), used only when it
/// agrees with the archive in full. Throwing fails the install; nothing is published.
package typealias TarixStoreBuilder =
    @Sendable (
        _ archiveFD: Int32, _ archiveName: String, _ resourcesFD: Int32, _ resourcesPath: String,
        _ publisherIndex: String?
    ) throws -> TarixStoreResult

/// What a `TarixStoreBuilder` made.
package struct TarixStoreResult: Sendable, Equatable {
    /// `indexed` (the archive had a flush point at every record and is kept as it is) or `reencoded`.
    package var mode: String
    /// Documents in the index.
    package var documents: Int
    /// Where the index came from: `built`, or `publisher` (a publisher's index, checked in full).
    package var indexSource: String
    /// Why a publisher's index was refused (docsync built its own); nil when none was offered or it was used.
    package var refusedIndex: String?

    package init(mode: String, documents: Int, indexSource: String = "built", refusedIndex: String? = nil) {
        self.mode = mode
        self.documents = documents
        self.indexSource = indexSource
        self.refusedIndex = refusedIndex
    }

    /// The files a tarix store adds, relative to the docset root.
    package static let files = ["Contents/Resources/tarix.tgz", "Contents/Resources/tarixIndex.db"]
}
