import DocSync
import Foundation

/// The `status --json` object (documented in Sources/DocSync/DocSync.docc/JSONObjects.md).
struct StatusJSON: Encodable {
    struct Partial: Encodable {
        var url: String
        var bytes: Int64
        var total: Int64?
        var updatedAt: Date?

        enum CodingKeys: String, CodingKey {
            case url, bytes, total
            case updatedAt = "updated_at"
        }
    }

    /// The sync holding `sync.lock` (`sync_in_progress`).
    struct Running: Encodable {
        var pid: Int32
        var since: Date?
    }

    /// How the last run went, even when it was interrupted (`last_run`, from `last-run.json`).
    struct LastRun: Encodable {
        var startedAt: Date
        var finishedAt: Date?
        var state: String
        var pid: Int32
        var detail: String?

        enum CodingKeys: String, CodingKey {
            case state, pid, detail
            case startedAt = "started_at"
            case finishedAt = "finished_at"
        }
    }

    struct LastSync: Encodable {
        var finishedAt: Date
        var feeds: [SyncRecord.FeedResult]
        var summary: SyncSummary

        enum CodingKeys: String, CodingKey {
            case feeds, summary
            case finishedAt = "finished_at"
        }
    }

    /// What Zeal makes of each docset (`ReaderView`), by name.
    struct Reader: Encodable {
        var name: String
        var zealLoadable: Bool
        var startPage: String?
        var startURL: String?

        enum CodingKeys: String, CodingKey {
            case name
            case zealLoadable = "zeal_loadable"
            case startPage = "start_page"
            case startURL = "start_url"
        }
    }

    /// One docset's text index: `ready` (with its size), `building`, `none` or `off`.
    struct TextIndex: Encodable {
        var name: String
        var state: String
        var bytes: Int64?
    }

    var schema = DocSyncJSON.schema
    var docsets: [InstalledDocset]
    var readers: [Reader]
    /// Per docset: its layout, regular files and allocated bytes on disk.
    var disk: [DiskUsage]
    var partialDownloads: [Partial]
    var reclaimable: Reclaimable
    var textIndexes: [TextIndex] = []
    var lastSync: LastSync?
    var syncInProgress: Running?
    var lastRun: LastRun?

    enum CodingKeys: String, CodingKey {
        case schema, docsets, reclaimable, readers, disk
        case syncInProgress = "sync_in_progress"
        case lastRun = "last_run"
        case partialDownloads = "partial_downloads"
        case lastSync = "last_sync"
        case textIndexes = "text_indexes"
    }

    /// Credentials in URLs are redacted, as in every other output.
    init(
        installed: [InstalledDocset], partials: [PartialDownload], record: SyncRecord?, reclaimable: Reclaimable,
        activity: StatusActivity
    ) {
        docsets = installed.sorted { $0.name < $1.name }.map {
            var docset = $0
            docset.sourceURL = docset.sourceURL?.redactingCredentials
            docset.feedURL = docset.feedURL?.redactingCredentials
            return docset
        }
        readers = docsets.map {
            let view = ReaderView.inspect(docsetPath: $0.path)
            return Reader(
                name: $0.name, zealLoadable: view.loadable, startPage: view.startPage,
                startURL: view.startURL?.absoluteString)
        }
        disk = docsets.map(DiskUsage.of)
        partialDownloads = partials.map {
            Partial(url: $0.url.redactingCredentials, bytes: $0.bytes, total: $0.total, updatedAt: $0.updatedAt)
        }
        syncInProgress = activity.running.map { Running(pid: $0.pid, since: $0.since) }
        if let run = activity.lastRun, let state = activity.lastRunState {
            lastRun = LastRun(
                startedAt: run.startedAt, finishedAt: run.finishedAt, state: state, pid: run.pid,
                detail: run.detail?.redactingCredentials)
        }
        self.reclaimable = reclaimable
        // SyncRecord stores its feeds redacted already.
        lastSync = record.map { LastSync(finishedAt: $0.finishedAt, feeds: $0.feeds, summary: $0.summary) }
    }
}
