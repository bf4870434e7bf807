import DocSync
import Foundation

/// One sample per `SyncEvent` kind, with every optional member set where the kind has one; the golden files in
/// `Golden/<kind>.json` are these samples encoded.
enum SyncEventSamples {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)  // whole seconds: JSON dates have no fraction

    static let docset = InstalledDocset(
        name: "Swift", title: "Swift 6", version: "6.0", revision: "2", identifier: "org.swift.docs",
        path: "/srv/docsets/.docsync/versions/Swift@0001", installedAt: date,
        archiveSHA256: String(repeating: "ab", count: 32), sizeOnDisk: 1_048_576, fileCount: 42,
        feedURL: "https://feeds.example/swift.atom", sourceURL: "https://cdn.example/Swift-6.0.tgz", updated: date)

    static let all: [SyncEvent] = [
        .feedChecked(feed: "https://feeds.example/swift.atom", source: .notModified, docsets: 3),
        .feedFailed(
            feed: "https://feeds.example/gone.atom",
            failure: SyncFailure(
                code: .http, isTransient: true, url: "https://feeds.example/gone.atom", httpStatus: 503,
                message: "Service Unavailable")),
        .feedWarning(feed: "https://feeds.example/swift.atom", message: "entry Swift: unreadable updated date dropped"),
        .planned([
            PlannedAction(action: .install, name: "Swift", version: "6.0/2", url: "https://cdn.example/Swift-6.0.tgz"),
            PlannedAction(
                action: .update, name: "Go", version: "1.23", from: "1.22", url: "https://cdn.example/Go.tgz"),
            PlannedAction(action: .unchanged, name: "Rust", version: "1.80"),
            PlannedAction(action: .remove, name: "Perl"),
            PlannedAction(action: .orphan, name: "Tcl"),
            PlannedAction(action: .skip, name: "Ruby", reason: "the pinned version 2.7 is not offered"),
        ]),
        .progress(DocsetProgress(name: "Swift", phase: .downloading, bytes: 524_288, total: 1_048_576, rate: 65536)),
        .installed(docset),
        .updated(docset, from: "5.10"),
        .unchanged(name: "Rust", version: "1.80"),
        .removed(name: "Perl"),
        .orphaned(name: "Tcl"),
        .skipped(name: "Ruby", reason: "the pinned version 2.7 is not offered"),
        .failed(
            name: "Go",
            failure: SyncFailure(
                code: .verification, isTransient: false, url: "https://cdn.example/Go.tgz",
                message: "SHA-256 is 00…, expected ab…")),
        .hookFailed(name: "Swift", failure: hookFailure),
        .warning(name: "Go", message: "installed over plain http and the feed gives no checksum"),
        .indexed(name: "Swift", version: "6.0", entries: 41_230),
        .indexFailed(name: "Go", reason: "Go: docSet.dsidx is not an SQLite database"),
        .alternateFault(
            name: "Go", url: "https://mirror.example/Go.tgz", reason: "html_page",
            message: "200 with an HTML page (a soft 404?) instead of the file"),
        .summary(summary),
    ]

    static var hookFailure: SyncFailure {
        var failure = SyncFailure(code: .hook, message: "post_install exited with status 7: broken")
        failure.exitStatus = 7
        failure.signal = 15
        failure.timedOut = false
        failure.stderrTail = ["broken"]
        return failure
    }

    static var summary: SyncSummary {
        var s = SyncSummary()
        s.installed = 1
        s.updated = 1
        s.unchanged = 1
        s.removed = 1
        s.failed = 2
        s.feedsFailed = 1
        s.seconds = 12.345
        return s
    }
}
