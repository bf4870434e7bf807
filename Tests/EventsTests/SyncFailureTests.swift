import DocSyncDownload
import DocSyncFeed
import DocSyncInstall
import DocSyncSupport
import Testing

@testable import DocSync

/// The stage errors become `SyncFailure` values in one place: the code, transience, URL and status are kept as
/// values, and the message never repeats the URL or the status.
@Suite(.timeLimit(.minutes(5))) struct SyncFailureTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var error: any Error & Sendable
        var expected: SyncFailure
        var testDescription: String { "\(expected.code)" }
    }

    static let url = "https://cdn.example/A.tgz"
    static let feed = "https://feeds.example/f.atom"

    static let cases: [Case] = [
        Case(
            error: DownloadError(.http, url: url, status: 404, reason: "not found on any mirror", isTransient: false),
            expected: SyncFailure(code: .http, url: url, httpStatus: 404, message: "not found on any mirror")),
        Case(
            error: DownloadError(.http, url: url, status: 404, reason: "HTTP 404", isTransient: false),
            expected: SyncFailure(code: .http, url: url, httpStatus: 404, message: "refused by the server")),
        Case(
            error: DownloadError(.http, url: url, status: 301, reason: "301 without Location", isTransient: false),
            expected: SyncFailure(code: .http, url: url, httpStatus: 301, message: "without Location")),
        Case(
            error: DownloadError(.transport, url: url, reason: "connection refused (connect)", isTransient: true),
            expected: SyncFailure(
                code: .transport, isTransient: true, url: url, message: "connection refused (connect)")),
        Case(
            error: DownloadError(.verification, url: url, status: 0, reason: "SHA-256 differs", isTransient: false),
            expected: SyncFailure(code: .verification, url: url, message: "SHA-256 differs")),
        Case(
            error: FeedError(feed: feed, line: 3, column: 7, reason: .truncated),
            expected: SyncFailure(
                code: .invalidFeed, url: feed, message: "line 3, column 7: the document ends too early (truncated)")),
        Case(
            error: FeedError(feed: feed, reason: .httpStatus(502)),
            expected: SyncFailure(
                code: .http, isTransient: true, url: feed, httpStatus: 502, message: "the server refused the feed")),
        Case(
            error: FeedRefresher.Failure(
                feed: feed, reason: "HTTP 503 Service Unavailable", httpStatus: 503, isTransient: true),
            expected: SyncFailure(
                code: .http, isTransient: true, url: feed, httpStatus: 503, message: "Service Unavailable")),
        Case(
            error: FeedRefresher.Failure(feed: feed, reason: "cannot read the file"),
            expected: SyncFailure(code: .io, url: feed, message: "cannot read the file")),
        Case(
            error: InstallError.rejected(entry: "../x", rule: .parentTraversal),
            expected: SyncFailure(
                code: .invalidArchive, url: url,
                message: InstallError.rejected(entry: "../x", rule: .parentTraversal)
                    .description)),
        Case(
            error: InstallError.insufficientSpace(what: "bytes", needed: 10, available: 1),
            expected: SyncFailure(
                code: .insufficientSpace, isTransient: true, url: url,
                message: "not enough free bytes: need about 10, 1 available")),
        Case(
            error: CancellationError(),
            expected: SyncFailure(code: .cancelled, isTransient: true, url: url, message: "cancelled")),
    ]

    @Test(arguments: cases)
    func stageErrorBecomesATypedFailure(_ c: Case) {
        let failure = SyncFailure(c.error, url: Self.url)
        #expect(failure == c.expected)
    }

    @Test func descriptionNamesURLAndStatusOnce() {
        let failure = SyncFailure(code: .http, url: Self.url, httpStatus: 404, message: "Not Found")
        #expect(failure.description == "\(Self.url): HTTP 404: Not Found")
    }
}
