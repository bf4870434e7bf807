@testable import DocSync
import DocSyncFeed
import DocSyncHTTP
import DocSyncIndex
@testable import DocSyncInstall
import DocSyncMirror
import DocSyncSupport
import Foundation
import Testing

@testable import DocSyncCLI

/// Every known condition gets its documented exit status (README's table), never 70: that is for a bug.
@Suite(.timeLimit(.minutes(10))) struct ErrorExitTests {
    static let transport = HTTPTransportError(kind: .connect, code: 7, message: "connection refused", url: "https://h/f.xml")

    @Test(arguments: [
        (SyncExclusionError.busy as any Error, Int32(75)),
        (SyncExclusionError.unavailable(path: "/s/sync.lock", detail: "open: EACCES"), 74),
        (HTTPClientError.transport(transport), 69),
        (HTTPClientError.noResponse(url: "https://h/f"), 69),
        (HTTPClientError.bodyTooLarge(url: "https://h/f", limit: 10), 65),
        (transport, 69),
        (DocsetIndexError.io("Go", "cannot create /s/index"), 74),
        (DocsetIndexError.notSQLite("Go", "file is not a database"), 65),
        (MirrorError.system("rename", "/m/feeds/Go.xml", errno: EACCES), 74),
        (MirrorError.checksum("/m/a", expected: "aa", actual: "bb"), 65),
        (MirrorError.bundle("/b.tar", "no manifest"), 65),
        (ArchiveFailure(message: "truncated gzip"), 65),
        (EntryRule.absolutePath, 65),
        (SystemError("open", path: "/r/x", code: EACCES), 74),
        (FeedError(feed: "https://h/f.xml", reason: .httpStatus(503)), 69),
        (FeedError(feed: "/f.xml", reason: .unreadable(errno: ENOENT, message: "no such file")), 74),
        (DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "bad JSON")), 65),
        (POSIXError(.ENOSPC), 74),
        (CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: "/r"]), 74),
        // Through SyncFailure (what `sync` / `remove` throw): the kind is kept, not `other`.
        (SyncFailure(SyncExclusionError.busy), 75),
        (SyncFailure(HTTPClientError.noResponse(url: "https://h/f")), 69),
        (SyncFailure(ArchiveFailure(message: "truncated gzip")), 65),
        (SyncFailure(POSIXError(.ENOSPC)), 74),
        (SyncFailure(CocoaError(.fileWriteOutOfSpace, userInfo: [NSFilePathErrorKey: "/s/x.part"])), 74),
        (SyncFailure(code: .other, message: "an invariant broke"), 70),
        // Through SyncError (the one error `sync()` throws): by its details.
        (SyncError(SyncExclusionError.busy), 75),
        (SyncError(SyncExclusionError.unavailable(path: "/s/sync.lock", detail: "open: EACCES")), 74),
        (SyncError(Preflight.Failure(problems: [.init(key: "root", path: "/r", problem: "not a directory")])), 78),
        (SyncError(UnknownDocsetError(unknown: [.init(name: "X", suggestion: nil)], known: [])), 64),
        (SyncError(SyncFailure(code: .io, message: "cannot read /r")), 74),
        (SyncError(CancellationError()), 130),
    ] as [(any Error, Int32)])
    func knownConditionsGetTheirDocumentedStatus(_ error: any Error, _ status: Int32) {
        #expect(ErrorExit.code(for: error).rawValue == status, "\(error)")
    }

    @Test func knownConditionsAreNotOther() {
        #expect(SyncFailure(SyncExclusionError.busy).code == .locked)
        #expect(SyncFailure(HTTPClientError.bodyTooLarge(url: "https://h/f", limit: 1)).code == .tooLarge)
        #expect(SyncFailure(EntryRule.absolutePath).code == .invalidArchive)
        #expect(SyncFailure(POSIXError(.ENOSPC)).code == .insufficientSpace)
        #expect(SyncFailure(POSIXError(.EDQUOT)).code == .insufficientSpace)
        #expect(SyncFailure(POSIXError(.EACCES)).code == .io)
    }
}
