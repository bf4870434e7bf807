internal import DocSyncHTTP
internal import DocSyncInstall
import Foundation

extension SyncFailure {
    /// Known conditions that arrive as types of their own or as system errors, so that none ends as `other` (an
    /// internal error, exit 70): a busy or unusable sync lock, the HTTP client's failures, archive and entry rule
    /// failures, and a full disk or quota (ENOSPC, EDQUOT) reported by Foundation. Nil for anything else.
    init?(known error: any Error, url: String?) {
        switch error {
        case let lock as SyncExclusionError:
            self.init(
                code: lock == .busy ? .locked : .io, isTransient: lock == .busy, url: url,
                message: lock.description)
        case let client as HTTPClientError:
            switch client {
            case .transport(let error):
                self.init(code: .transport, isTransient: error.isTransient, url: error.url, message: error.message)
            case .bodyTooLarge(let location, let limit):
                self.init(code: .tooLarge, url: location, message: "response body exceeds the limit of \(limit) bytes")
            case .noResponse(let location):
                self.init(code: .transport, isTransient: true, url: location, message: "no HTTP response")
            case .cancelled(let location):
                self.init(code: .cancelled, isTransient: true, url: location, message: "cancelled")
            }
        case let archive as ArchiveFailure:
            self.init(code: archive.library == nil ? .invalidArchive : .io, url: url, message: archive.message)
        case let rule as EntryRule: self.init(code: .invalidArchive, url: url, message: rule.description)
        default:
            guard UserText.foundationText(error) != nil,
                let errno = UserText.posixCode(error as NSError), errno == ENOSPC || errno == EDQUOT
            else { return nil }
            self.init(code: .insufficientSpace, isTransient: true, url: url, message: UserText.describe(error))
        }
    }
}
