import DocSync
import DocSyncCLI
import Testing

/// `docsync catalog`: installed and latest in the catalogue's form, the Dash revision apart, and Zeal's update rule.
@Suite(.timeLimit(.minutes(5))) struct CatalogStandingTests {
    struct Row: Sendable, CustomStringConvertible {
        var latest: String?
        var latestRevision: String?
        var installed: String??
        var installedRevision: String?
        var expected: (String?, String?, CatalogStanding.Status?)
        var description: String { "\(latest ?? "-")/\(latestRevision ?? "-") vs \(String(describing: installed))" }
    }

    @Test(arguments: [
        // ActionScript: Kapeli's 3/27 recorded as 3 + revision 27 against the catalogue's 3 r27.
        Row(
            latest: "3", latestRevision: "27", installed: "3", installedRevision: "27",
            expected: ("3", "27", .upToDate)),
        // An older record that kept `3/27` as the version is read in the same form.
        Row(
            latest: "3", latestRevision: "27", installed: "3/27", installedRevision: nil,
            expected: ("3", "27", .upToDate)),
        Row(latest: "3", latestRevision: "28", installed: "3", installedRevision: "27",
            expected: ("3", "27", .updateAvailable)),
        Row(latest: "1.22", latestRevision: "0", installed: "1.21", installedRevision: nil,
            expected: ("1.21", nil, .updateAvailable)),
        // C++: the catalogue states no version: installed, nothing to compare.
        Row(
            latest: nil, latestRevision: "0", installed: "87", installedRevision: nil,
            expected: ("87", nil, .installed)),
        Row(latest: "1", latestRevision: nil, installed: .some(nil), installedRevision: nil,
            expected: (nil, nil, .updateAvailable)),
        Row(latest: "1", latestRevision: nil, installed: nil, installedRevision: nil, expected: (nil, nil, nil)),
    ])
    func standing(_ row: Row) {
        let standing = CatalogStanding(
            latest: row.latest, latestRevision: row.latestRevision, installed: row.installed,
            installedRevision: row.installedRevision)
        #expect(standing.installed == row.expected.0)
        #expect(standing.installedRevision == row.expected.1)
        #expect(standing.status == row.expected.2)
    }
}
