internal import DocSyncCatalog
internal import DocSyncDownload
internal import DocSyncFeed
internal import DocSyncHTTP
import DocSyncIndex
internal import DocSyncInstall
internal import DocSyncMirror
internal import DocSyncSupport

/// What an error thrown by a stage module (download, feed, HTTP, install, catalogue, index, mirror, support) means
/// to a caller choosing an exit status: the one place those errors are classified, so the CLI's exit-code table
/// names no stage type.
package enum StageErrorClass: Sendable, Equatable {
    /// The input is at fault: an invalid feed or catalogue, a rejected archive, a failed verification, a limit.
    case dataError
    /// The network or a server is at fault.
    case unavailable
    /// A file-system operation failed.
    case ioError
    /// The request itself is wrong (a download request that cannot be made).
    case invalidRequest

    /// The class of `error` when a stage module threw it; nil for every other error.
    package init?(_ error: any Error) {
        switch error {
        case is CatalogError: self = .dataError
        case let download as DownloadError: self.init(download: download)
        case let install as InstallError: self = install.isArchiveRejection ? .dataError : .ioError
        case let feed as FeedError: self.init(feed: feed)
        case let client as HTTPClientError:
            if case .bodyTooLarge = client { self = .dataError } else { self = .unavailable }
        case is HTTPTransportError: self = .unavailable
        case let index as DocsetIndexError: self = index.kind == .io ? .ioError : .dataError
        case let mirror as MirrorError: self = mirror.isDataError ? .dataError : .ioError
        case let archive as ArchiveFailure: self = archive.library == nil ? .dataError : .ioError
        case is EntryRule: self = .dataError
        case is SystemError: self = .ioError
        default: return nil
        }
    }

    /// A download's failure: `docsync fetch`'s statuses.
    private init(download error: DownloadError) {
        switch error.kind {
        case .verification, .badResponse, .tooManyRestarts, .tooLarge: self = .dataError
        case .disk, .insufficientSpace: self = .ioError
        case .invalidRequest: self = .invalidRequest
        case .http, .transport, .locked, .cancelled: self = .unavailable
        }
    }

    /// A feed's failure: `docsync feed parse`'s statuses.
    private init(feed error: FeedError) {
        switch error.reason {
        case .transport, .httpStatus: self = .unavailable
        case .unreadable, .libraryUnavailable: self = .ioError
        default: self = .dataError
        }
    }
}
