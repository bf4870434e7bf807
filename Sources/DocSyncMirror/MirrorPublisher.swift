import DocSyncSupport
import Foundation

/// Publishes installed docsets as a static tree any web server can serve:
///
/// ```
/// <dir>/archives/<sha256>/<Name>.tgz   verified archives, immutable (a new version is a new folder)
/// <dir>/archives/<sha256>/<Name>.tgz.tarix   its tarix index, when the archive is flushed at every record
/// <dir>/feeds/<Name>.xml               a Dash feed per docset (mirror URL first, upstream after, <sha256>)
/// <dir>/feeds/zeal/<Name>.xml          the same for Zeal's "Add feed": the mirror's copy only
/// <dir>/docsets.atom                   one Atom docset feed of every kept version
/// <dir>/catalogue.json                 Zeal's catalogue shape
/// <dir>/manifest.lock                  docsync.lock format: every published archive's SHA-256 and size
/// ```
///
/// The index `<archive>.tarix` for an archive (read from `archiveFD`, named `archiveName` in messages) already
/// flushed at every record, as the bytes of a gzip'd tar holding `tarixIndex.db`; nil when it is not flushed.
package typealias MirrorIndexer = @Sendable (_ archiveFD: Int32, _ archiveName: String) throws -> [UInt8]?

/// Safe for readers at every instant (and after SIGKILL at any point): archives land and are fsynced before any
/// document names them; every document is replaced by rename; an archive folder is deleted only when no published
/// document names it and its grace period has passed, so a client mid-download finishes.
package struct MirrorPublisher: Sendable {
    package struct Settings: Sendable, Equatable {
        package var directory: String
        package var baseURL: String
        package var keep: Int
        package var grace: TimeInterval

        package init(directory: String, baseURL: String, keep: Int = 2, grace: TimeInterval = 3600) {
            self.directory = directory
            self.baseURL = baseURL
            self.keep = keep
            self.grace = grace
        }
    }

    /// What one publish did.
    package struct Report: Sendable, Equatable {
        package var published: [String] = []
        /// Archive folders placed in this run (linked or copied).
        package var placed = 0
        /// Archive folders deleted (no feed named them for longer than the grace period).
        package var deleted = 0
        /// Docsets left out, with the reason (e.g. not installed by docsync: no checksum to publish).
        package var skipped: [(name: String, reason: String)] = []
        /// Docsets whose newest archive could not be had for the pool (fetch failed, copy gone): a failure. Their
        /// feeds keep naming the versions published before (`kept`: the newest of those, nil when none was).
        package var failed: [(name: String, reason: String, kept: String?)] = []

        package init() {}

        package static func == (a: Report, b: Report) -> Bool {
            a.published == b.published && a.placed == b.placed && a.deleted == b.deleted
                && a.skipped.map(\.name) == b.skipped.map(\.name) && a.failed.map(\.name) == b.failed.map(\.name)
                && a.failed.map(\.kept) == b.failed.map(\.kept)
        }
    }

    package let settings: Settings
    /// `<state>/mirror.json`.
    package let statePath: String
    /// Builds the tarix index package (`<archive>.tarix`: a gzip'd tar holding `tarixIndex.db`) of an archive that
    /// already has a full flush before every record; nil when it has not. docsync wires `DocSyncTarix` in.
    package var indexer: MirrorIndexer?

    package init(settings: Settings, statePath: String) {
        self.settings = settings
        self.statePath = statePath
    }

    /// Keeps a just-verified archive (at `source`, e.g. in staging before it is deleted) in the pool, so the next
    /// publish need not fetch it again. Named by no document until a publish does.
    package func retain(_ version: MirrorVersion, from source: String) throws(MirrorError) {
        do throws(SystemError) {
            let archives = try SafeDirectory.open(settings.directory, create: true).directory("archives", create: true)
            let folder = try archives.directory(version.sha256, create: true)
            guard folder.regularFileSize(version.file) != version.size else { return }
            try folder.place(version.file, from: source)
            try folder.sync()
            try archives.sync()
        } catch {
            throw .system(error)
        }
    }

    /// Publishes `installed` (the newest version of each docset). `archive` returns the path of a verified copy of
    /// a version whose archive is not in the pool yet (nil or a throw: a failure, the docset's feed keeps its
    /// previously published versions); `manifest` renders the manifest. `held`: installed docsets with nothing to
    /// publish this time (no checksum), whose previously published versions stay too.
    package func publish(
        _ installed: [MirrorVersion], held: Set<String> = [], now: Date = Date(),
        archive: (MirrorVersion) async throws -> String?,
        manifest: (MirrorDocuments) -> [UInt8]
    ) async throws -> Report {
        do {
            return try await publishing(installed, held: held, now: now, archive: archive, manifest: manifest)
        } catch let error as SystemError {
            throw MirrorError.system(error)  // a file-system call on the tree: named as the mirror's own error
        }
    }

    private func publishing(
        _ installed: [MirrorVersion], held: Set<String>, now: Date,
        archive: (MirrorVersion) async throws -> String?,
        manifest: (MirrorDocuments) -> [UInt8]
    ) async throws -> Report {
        var report = Report()
        let root = try SafeDirectory.open(settings.directory, create: true)
        let archives = try root.directory("archives", create: true)
        let feeds = try root.directory("feeds", create: true)
        let zealFeeds = try feeds.directory("zeal", create: true)

        // 1. Archives first, durable, before any document names them.
        var available: [MirrorVersion] = []
        var unavailable: [(name: String, reason: String)] = []
        for version in installed {
            let folder = try archives.directory(version.sha256, create: true)
            if folder.regularFileSize(version.file) != version.size {
                do {
                    guard let source = try await archive(version) else {
                        unavailable.append((version.name, "its archive is not kept and could not be fetched"))
                        continue
                    }
                    try folder.place(version.file, from: source)
                    try folder.sync()
                    report.placed += 1
                } catch {
                    unavailable.append((version.name, "\(error)"))
                    continue
                }
            }
            if let indexer { publishIndex(version, in: folder, indexer: indexer) }
            available.append(version)
        }
        try archives.sync()
        try root.sync()

        // 2. Plan (pure), then the documents, each by rename.
        let pool = Set(MirrorBundle.listing(archives).filter(Self.isDigest))
        let previous = MirrorState.load(statePath)
        let plan = MirrorPlanner.plan(
            previous: previous, installed: available, held: held.union(unavailable.map(\.name)), pool: pool,
            keep: settings.keep, grace: settings.grace, now: now)
        report.failed = unavailable.map { ($0.name, $0.reason, plan.state.docsets[$0.name]?.first?.version) }
        var documents = MirrorDocuments(baseURL: settings.baseURL, state: plan.state)
        documents.indexed = Set(
            plan.state.latest.filter { version in
                (try? archives.existingDirectory(version.sha256))?.regularFileSize(Self.indexName(version)) != nil
            }.map(\.sha256))
        for name in plan.state.docsets.keys.sorted() {
            try feeds.replaceFileIfChanged("\(name).xml", Array(documents.dashFeed(name).utf8))
            try zealFeeds.replaceFileIfChanged("\(name).xml", Array(documents.zealFeed(name).utf8))
        }
        for name in plan.dropped {
            try feeds.unlink("\(name).xml")
            try zealFeeds.unlink("\(name).xml")
        }
        try zealFeeds.sync()
        try feeds.sync()
        let updated = plan.state.updated ?? now
        try root.replaceFileIfChanged(MirrorDocuments.atomPath, Array(documents.atomFeed(updated: updated).utf8))
        try root.replaceFileIfChanged(MirrorDocuments.cataloguePath, documents.catalogue())
        try root.replaceFileIfChanged(MirrorDocuments.manifestPath, manifest(documents))
        try root.sync()
        try saveState(plan.state)

        // 3. Only now, archives no document names and whose grace period has passed.
        for digest in plan.expired {
            let folder = try archives.directory(digest)
            for name in MirrorBundle.listing(folder) { try folder.unlink(name) }
            try archives.unlink(digest, directory: true)
            report.deleted += 1
        }
        if !plan.expired.isEmpty { try archives.sync() }
        report.published = plan.state.docsets.keys.sorted()
        return report
    }

    /// `<file>.tarix`, the index Kapeli's convention puts next to an archive.
    static func indexName(_ version: MirrorVersion) -> String { version.file + ".tarix" }

    /// Publishes `<file>.tarix` beside an archive that is already flushed at every record — indexed as it is, so
    /// the bytes served stay the publisher's and every digest naming them holds. Any other archive gets an empty
    /// `.<file>.notarix`, so the check (one inflate pass) is made once per archive; a mirror never re-encodes what it
    /// serves. Best effort: without an index the archive is still published.
    private func publishIndex(_ version: MirrorVersion, in folder: SafeDirectory, indexer: MirrorIndexer) {
        let index = Self.indexName(version)
        let marker = ".\(version.file).notarix"  // hidden: neither bundled nor taken for the archive
        guard folder.regularFileSize(index) == nil, folder.regularFileSize(marker) == nil else { return }
        do {
            let fd = try folder.openFile(version.file, O_RDONLY)
            defer { close(fd) }
            let package: [UInt8]?
            do { package = try indexer(fd, "\(folder.path)/\(version.file)") } catch { package = nil }
            try folder.writeFileAtomically(package == nil ? marker : index, package ?? [], mode: 0o644)
            try folder.sync()
        } catch {
            return  // tried again by the next publish
        }
    }

    private func saveState(_ state: MirrorState) throws(MirrorError) {
        let directory = (statePath as NSString).deletingLastPathComponent
        let name = (statePath as NSString).lastPathComponent
        do throws(SystemError) {
            let folder = try SafeDirectory.open(directory.isEmpty ? "." : directory, create: true)
            try folder.writeFileAtomically(name, state.encoded(), mode: 0o600)  // upstream URLs may carry credentials
            try folder.sync()
        } catch {
            throw .system(error)
        }
    }

    static func isDigest(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
