import DocSyncDocset
import DocSyncSupport

/// The install stage's name for ``InstalledDocset/Layout`` (one type: how an installed docset keeps its documents).
package typealias InstallLayout = InstalledDocset.Layout

extension TarixStore {
    /// Reads the archive `archive` (named `archiveName` in messages) from offset 0 — a verified file, or a download
    /// still growing whose reads wait for its bytes — and creates
    /// `tarix.tgz` and `tarixIndex.db` in the staged docset's `Contents/Resources` folder (`resourcesFD`,
    /// `resourcesPath` for messages). `publisherIndex`: a publisher's `tarixIndex.db` (unpacked from `<url>.tarix`),
    /// used only when it agrees with the archive in full. Throwing fails the install; nothing is published.
    package typealias Build =
        @Sendable (
            _ archive: any ByteSource, _ archiveName: String, _ resourcesFD: Int32, _ resourcesPath: String,
            _ publisherIndex: String?
        ) throws -> TarixStoreResult

    /// The install of an archive file in one pass: walks `pass.archive` once (a file, or a download still growing) —
    /// indexing it when it is flushed at every record, checking `publisherIndex` against it, or (`pass.reencodes`)
    /// re-encoding it into `pass.storeArchiveFD` — creating `tarixIndex.db` in `pass.folderFD` and handing every byte
    /// read, every record and its data to `pass`. Returns nil when the archive is not flushed at every record (the
    /// installer then starts over with a pass that re-encodes); throws when the index is refused or the walk fails: the
    /// installer then discards the pass (unless `pass.failure` says the archive broke an extraction rule) and installs
    /// in two passes with `build`.
    package typealias OnePass =
        @Sendable (_ pass: TarixOnePass, _ publisherIndex: String?) throws -> TarixStoreResult?
}

/// What `TarixStore` made.
package struct TarixStoreResult: Sendable, Equatable {
    /// `indexed` (the archive had a flush point at every record and is kept as it is) or `reencoded`.
    package var mode: String
    /// Documents in the index.
    package var documents: Int
    /// Where the index came from: `built`, or `publisher` (a publisher's index, checked in full).
    package var indexSource: String
    /// Why a publisher's index was refused (docsync built its own); nil when none was offered or it was used.
    package var refusedIndex: String?
    /// The SHA-256 of a re-encoded `tarix.tgz`, computed as it was written (nil: the installer hashes it).
    package var archiveSHA256: String?

    package init(
        mode: String, documents: Int, indexSource: String = "built", refusedIndex: String? = nil,
        archiveSHA256: String? = nil
    ) {
        self.mode = mode
        self.documents = documents
        self.indexSource = indexSource
        self.refusedIndex = refusedIndex
        self.archiveSHA256 = archiveSHA256
    }

    /// The files a tarix store adds, relative to the docset root.
    package static let files = ["Contents/Resources/tarix.tgz", "Contents/Resources/tarixIndex.db"]
}
