package import DocSyncFeed
internal import DocSyncHTTP
import Foundation

/// A docset feed (Atom or Dash) as parsed, for a tool that inspects one: `docsync feed parse` prints it.
///
/// ``parse(fileAt:baseURL:maxBytes:)`` reads a file and ``fetch(url:baseURL:maxBytes:timeout:)`` an http(s) URL,
/// through the same hardened parser a sync uses. Relative links are resolved against `xml:base` and the document
/// URL (the fetched URL, or `baseURL`).
public struct ParsedFeed: Sendable, Equatable {
    /// The feed's format, detected from its root element.
    public enum Format: String, Sendable, Equatable {
        /// Atom 1.0 (RFC 4287) with Apple's docset extension.
        case atom
        /// Dash / Zeal feed XML: one entry with a `<version>` and mirror `<url>`s.
        case dash
    }

    /// An Atom `link`, `href` resolved against `xml:base` and the document URL.
    public struct Link: Sendable, Equatable {
        let link: FeedLink
        /// The resolved URL.
        public var href: String { link.href }
        /// The relation; `alternate` when the element has none.
        public var rel: String { link.rel }
        /// The advertised media type.
        public var type: String? { link.type }
        /// The advisory byte count: nil when absent or not a non-negative integer.
        public var length: Int64? { link.length }
        /// The link's title.
        public var title: String? { link.title }
        /// The language of the linked resource.
        public var hreflang: String? { link.hreflang }
    }

    /// One archive an entry offers (an Atom enclosure, a Dash mirror `<url>`).
    public struct Archive: Sendable, Equatable {
        let archive: FeedArchive
        /// The archive's URL, resolved.
        public var url: String { archive.url }
        /// The advertised media type.
        public var type: String? { archive.type }
        /// The advertised length in bytes.
        public var length: Int64? { archive.length }
    }

    /// One docset version the feed offers.
    public struct Entry: Sendable, Equatable {
        let entry: FeedEntry
        /// Atom `id` (opaque); Dash feeds have none.
        public var id: String? { entry.id }
        /// Plain text: Atom text constructs reduced to text.
        public var title: String? { entry.title }
        /// Atom `updated`, in UTC.
        public var updated: Date? { entry.updated }
        /// `docset:identifier`; for Dash, the docset name.
        public var identifier: String? { entry.identifier }
        /// `docset:version`; for Dash, the part of `<version>` before the last `/`.
        public var version: String? { entry.version }
        /// Dash only: the part of `<version>` after the last `/`.
        public var revision: String? { entry.revision }
        /// Every Atom `link` of the entry, in document order.
        public var links: [Link] { entry.links.map(Link.init) }
        /// Atom: the enclosures; Dash: every mirror `<url>`, in feed order.
        public var archives: [Archive] { entry.archives.map(Archive.init) }
        /// The archive's SHA-256 (64 lowercase hex digits), when the feed gives one.
        public var sha256: String? { entry.sha256 }
        /// Dash `<other-versions>` names, in feed order.
        public var otherVersions: [String] { entry.otherVersions }
    }

    let document: FeedDocument
    /// Atom or Dash.
    public var format: Format { document.format == .atom ? .atom : .dash }
    /// Atom `id`.
    public var id: String? { document.id }
    /// Dash: the docset name (the stem of the feed's URL or file name). Nil for Atom.
    public var name: String? { document.name }
    /// The feed's title.
    public var title: String? { document.title }
    /// Atom `updated`, in UTC.
    public var updated: Date? { document.updated }
    /// The feed's own links.
    public var links: [Link] { document.links.map(Link.init) }
    /// The docset versions offered.
    public var entries: [Entry] { document.entries.map(Entry.init) }
    /// What was dropped instead of rejecting the feed (an unreadable date, …), one line each.
    public var warnings: [String] { document.warnings }

    /// The largest feed accepted unless told otherwise: 32 MiB.
    public static let defaultMaxBytes = FeedLimits.defaultMaxBytes

    /// Parses the feed file at `path`; `baseURL` is the URL it was published at (the base for relative links).
    public static func parse(
        fileAt path: String, baseURL: String? = nil, maxBytes: Int = defaultMaxBytes
    ) throws(FeedParseError) -> ParsedFeed {
        do {
            return ParsedFeed(try FeedParser.parse(fileAt: path, documentURL: baseURL, limits: limits(maxBytes)))
        } catch {
            if case .unreadable(let code, _) = error.reason, code == ENOENT, MissingFeedFile.looksLikeURL(path) {
                throw FeedParseError(
                    FeedError(feed: path, reason: .unreadable(errno: code, message: MissingFeedFile.reason(path))))
            }
            throw FeedParseError(error)
        }
    }

    /// Fetches and parses the feed at the http(s) `url`; a transfer taking longer than `timeout` seconds in all is
    /// given up.
    public static func fetch(
        url: String, baseURL: String? = nil, maxBytes: Int = defaultMaxBytes, timeout: Int = 120
    ) async throws(FeedParseError) -> ParsedFeed {
        var options = HTTPOptions()
        options.totalTimeout = timeout
        do {
            return ParsedFeed(
                try await FeedFetcher.fetch(url: url, documentURL: baseURL, limits: limits(maxBytes), options: options))
        } catch {
            throw FeedParseError(error)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, as feeds and `feed parse --json` write dates.
    public static func dateText(_ date: Date) -> String { FeedDate.format(date) }

    private static func limits(_ maxBytes: Int) -> FeedLimits { FeedLimits(maxBytes: maxBytes) }

    package init(_ document: FeedDocument) { self.document = document }
}
