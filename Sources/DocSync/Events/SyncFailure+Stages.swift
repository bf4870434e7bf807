internal import DocSyncCatalog
internal import DocSyncDownload
internal import DocSyncFeed
internal import DocSyncHTTP
internal import DocSyncInstall
internal import DocSyncSupport
import Foundation

/// The one place where the stages' errors become ``SyncFailure`` values.
extension SyncFailure {
    /// The failure for `error`, thrown while working on `url` (a feed or an archive) when known.
    package init(_ error: any Error, url: String? = nil) {
        switch error {
        case let error as SyncFailure: self = error
        case let error as DownloadError: self.init(download: error)
        case let error as FeedError: self.init(feed: error)
        case let error as FeedRefresher.Failure: self.init(refresh: error)
        case let error as InstallError: self.init(install: error, url: url)
        case let error as CatalogError:
            var message = error.description
            if message.hasPrefix("\(error.catalog): ") { message.removeFirst(error.catalog.count + 2) }
            self.init(code: .invalidFeed, url: error.catalog, message: message)
        case let error as SystemError: self.init(code: .io, url: url, message: error.description)
        case let error as HTTPTransportError:
            self.init(code: .transport, isTransient: error.isTransient, url: error.url, message: error.message)
        case is CancellationError: self.init(code: .cancelled, isTransient: true, url: url, message: "cancelled")
        default:
            if let known = SyncFailure(known: error, url: url) {
                self = known
            } else {
                // Foundation's file errors read as `PATH: strerror`, never an NSError dump (UserText).
                let foundation = UserText.foundationText(error) != nil
                self.init(code: foundation ? .io : .other, url: url, message: UserText.describe(error))
            }
        }
        // The message never repeats the URL or a segment (UserText's rule).
        if let url = self.url, message.hasPrefix("\(url): ") { message.removeFirst(url.count + 2) }
        message = UserText.removingRepeatedSegments(message)
    }

    private init(refresh error: FeedRefresher.Failure) {
        guard let status = error.httpStatus else {
            let code: Code = error.isTransient ? .transport : .io
            var message = error.reason  // the URL travels separately
            if message.hasPrefix("\(error.feed): ") { message.removeFirst(error.feed.count + 2) }
            self.init(code: code, isTransient: error.isTransient, url: error.feed, message: message)
            return
        }
        self.init(
            code: .http, isTransient: error.isTransient, url: error.feed, httpStatus: status,
            message: Self.message(error.reason, status: status))
    }

    private init(download error: DownloadError) {
        let code: Code =
            switch error.kind {
            case .http: .http
            case .transport: .transport
            case .badResponse, .tooManyRestarts: .badResponse
            case .verification: .verification
            case .disk: .io
            case .insufficientSpace: .insufficientSpace
            case .tooLarge: .tooLarge
            case .locked: .locked
            case .cancelled: .cancelled
            case .invalidRequest: .invalidRequest
            }
        let status = error.status.flatMap { $0 > 0 ? $0 : nil }
        let message = status.map { Self.message(error.reason, status: $0) } ?? error.reason
        self.init(code: code, isTransient: error.isTransient, url: error.url, httpStatus: status, message: message)
    }

    /// The message without a leading `HTTP <status>` (the status travels separately, and printing both doubled
    /// it: `HTTP 404: HTTP 404`); `HTTP 503 Service Unavailable` keeps its phrase.
    static func message(_ reason: String, status: Int) -> String {
        var text = Substring(reason)
        for prefix in ["HTTP \(status)", "\(status)"] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
        }
        let message = text.trimmingCharacters(in: CharacterSet(charactersIn: " :"))
        if !message.isEmpty { return message }
        return switch status {
        case 400..<500: "refused by the server"
        case 500..<600: "server error"
        default: "unexpected status"
        }
    }

    private init(feed error: FeedError) {
        // The description is `feed[:line[:column]]: reason`; the URL travels separately.
        var location = error.feed
        var place = ""
        if let line = error.line {
            location += ":\(line)"
            place = "line \(line)"
            if let column = error.column {
                location += ":\(column)"
                place += ", column \(column)"
            }
            place += ": "
        }
        let message = place + error.description.dropFirst(location.count + 2)
        switch error.reason {
        case .transport:
            self.init(code: .transport, isTransient: true, url: error.feed, message: message)
        case .httpStatus(let status):
            self.init(
                code: .http, isTransient: status >= 500, url: error.feed, httpStatus: status,
                message: "the server refused the feed")
        case .unreadable, .libraryUnavailable: self.init(code: .io, url: error.feed, message: message)
        default: self.init(code: .invalidFeed, url: error.feed, message: message)
        }
    }

    private init(install error: InstallError, url: String?) {
        let code: Code =
            switch error {
            case .rejected, .unreadableArchive, .notADocset, .unreadableDocset: .invalidArchive
            case .insufficientSpace: .insufficientSpace
            case .invalidName: .invalidRequest
            case .notInstalled: .notInstalled
            case .foreign: .foreignFolder
            case .io, .libraryUnavailable: .io
            }
        let transient: Bool =
            switch error {
            case .insufficientSpace: true
            default: false
            }
        self.init(code: code, isTransient: transient, url: url, message: error.description)
    }
}
