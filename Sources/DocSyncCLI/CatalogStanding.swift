/// An installed docset against its catalogue entry, in one form: the catalogue's version with the Dash revision
/// apart (`3` and revision `27`, never `3/27` beside `3`). Pure.
package struct CatalogStanding: Sendable, Equatable {
    /// `up to date`, `update available`, or `installed` when the catalogue states no version to compare with.
    package enum Status: String, Sendable, Equatable {
        case upToDate = "up to date"
        case updateAvailable = "update available"
        case installed
    }

    package var latest: String?
    package var latestRevision: String?
    package var installed: String?
    package var installedRevision: String?
    /// Nil when it is not installed.
    package var status: Status?

    /// - Parameters:
    ///   - latest, latestRevision: the catalogue's newest version and revision (`"0"`/empty: none).
    ///   - installed, installedRevision: docsync's record of the installed version (nil: not installed; an adopted
    ///     docset without a version is installed with none).
    package init(latest: String?, latestRevision: String?, installed: String??, installedRevision: String?) {
        func revision(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text != "0" else { return nil }
            return text
        }
        self.latest = latest.flatMap { $0.isEmpty ? nil : $0 }
        self.latestRevision = revision(latestRevision)
        guard let installed else {
            (self.installed, self.installedRevision, status) = (nil, nil, nil)
            return
        }
        // A Dash version written `V/R` (an older record) is split into its two parts.
        var version = installed.flatMap { $0.isEmpty ? nil : $0 }
        var rev = revision(installedRevision)
        if rev == nil, let text = version, let slash = text.firstIndex(of: "/") {
            rev = revision(String(text[text.index(after: slash)...]))
            version = String(text[..<slash])
        }
        self.installed = version
        self.installedRevision = rev
        guard let latest = self.latest else {
            status = .installed
            return
        }
        // Zeal's rule: another version, or a greater revision, is an update.
        let newerRevision = Int(self.latestRevision ?? "0") ?? 0 > Int(rev ?? "0") ?? 0
        status = version != latest || newerRevision ? .updateAvailable : .upToDate
    }

    /// `3 r27`, `3`, or nil.
    package static func text(_ version: String?, revision: String?) -> String? {
        guard let version else { return revision.map { "r\($0)" } }
        return revision.map { "\(version) r\($0)" } ?? version
    }
}
