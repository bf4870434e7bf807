import Foundation

/// One docset version offered by a feed. Several entries may share one `identifier` (several versions).
package struct FeedEntry: Sendable, Equatable, Hashable, Codable {
    /// Atom `id` (opaque: compare as a string). Dash feeds have none.
    package var id: String?
    /// Plain text (Atom text/html/xhtml constructs are reduced to text).
    package var title: String?
    /// Atom `updated`, normalised to UTC.
    package var updated: Date?
    /// `docset:identifier` (CFBundleIdentifier); for Dash, the docset name.
    package var identifier: String?
    /// `docset:version`; for Dash, the part of `<version>` before the last `/`.
    package var version: String?
    /// Dash only: the part of `<version>` after the last `/` (e.g. `9` of `/9`, `1.35` of `4.2/1.35`).
    package var revision: String?
    /// Every Atom `link` of the entry, in document order.
    package var links: [FeedLink]
    /// Atom: the `rel="enclosure"` links; Dash: every mirror `<url>`, in feed order.
    package var archives: [FeedArchive]
    package var minimumXcodeVersion: String?
    package var maximumXcodeVersion: String?
    package var signer: String?
    package var issuer: String?
    /// The archive's SHA-256 as 64 lowercase hex digits (`docset:sha256` in Atom, `<sha256>` in Dash feeds).
    package var sha256: String?
    /// Dash `<other-versions>` names, in feed order.
    package var otherVersions: [String]

    package init(
        id: String? = nil, title: String? = nil, updated: Date? = nil, identifier: String? = nil,
        version: String? = nil, revision: String? = nil, links: [FeedLink] = [], archives: [FeedArchive] = [],
        minimumXcodeVersion: String? = nil, maximumXcodeVersion: String? = nil, signer: String? = nil,
        issuer: String? = nil, sha256: String? = nil, otherVersions: [String] = []
    ) {
        self.id = id
        self.title = title
        self.updated = updated
        self.identifier = identifier
        self.version = version
        self.revision = revision
        self.links = links
        self.archives = archives
        self.minimumXcodeVersion = minimumXcodeVersion
        self.maximumXcodeVersion = maximumXcodeVersion
        self.signer = signer
        self.issuer = issuer
        self.sha256 = sha256
        self.otherVersions = otherVersions
    }
}
