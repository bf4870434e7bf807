/// Kapeli's licence for Dash's docsets: they may be used only personally or with Dash or Zeal, not in third-party
/// applications, online or offline, without Kapeli's permission (the Kapeli/feeds README). Syncing one's own Zeal
/// folder is that use; publishing them on a fleet mirror or serving them to others is not. User-contributed docsets
/// (`…/zzz/user_contributed/…`) and self-built ones are unaffected. Pure.
package enum KapeliLicence {
    /// The notice `mirror publish` (also a sync's, with `[mirror]`) and a `serve` listening beyond loopback print once
    /// per Kapeli docset.
    package static let terms =
        "Kapeli's docsets may be used only personally or with Dash or Zeal; redistributing or serving them to "
        + "others needs Kapeli's permission (https://github.com/Kapeli/feeds)"

    /// True when the docset came from Kapeli: its feed or archive URL is on kapeli.com (or one of its mirrors,
    /// `<city>.kapeli.com`), outside the user contributions.
    package static func covers(feedURL: String?, sourceURL: String?) -> Bool {
        [feedURL, sourceURL].contains { url in url.map(isKapeliURL) ?? false }
    }

    /// True when `docset` came from Kapeli (``covers(feedURL:sourceURL:)``).
    package static func covers(_ docset: InstalledDocset) -> Bool {
        covers(feedURL: docset.feedURL, sourceURL: docset.sourceURL)
    }

    /// The warnings for `docsets` handed to others (`names`: those published or served), one per Kapeli docset,
    /// in name order; none when the configuration records Kapeli's permission.
    package static func warnings(
        for docsets: [InstalledDocset], names: Set<String>? = nil, permission: Bool, key: String
    ) -> [String] {
        covered(docsets, names: names, permission: permission).map { "\($0) \(warning(key: key))" }
    }

    /// The names of the Kapeli docsets among `docsets` (those in `names`, when given), sorted, each once; none with
    /// `permission`.
    package static func covered(_ docsets: [InstalledDocset], names: Set<String>?, permission: Bool) -> [String] {
        guard !permission else { return [] }
        return Set(docsets.filter { (names?.contains($0.name) ?? true) && covers($0) }.map(\.name)).sorted()
    }

    /// The warning after a docset's name: "is a Kapeli docset: TERMS; set KEY = true once you have it".
    package static func warning(key: String) -> String {
        "is a Kapeli docset: \(terms); set \(key) = true once you have it"
    }

    /// True when `listen` (`HOST:PORT`, `[IPV6]:PORT`) names a loopback host: `localhost`, 127.0.0.0/8, `::1`.
    package static func isLoopback(listen: String) -> Bool {
        var host = Substring(listen)
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        let lowered = host.lowercased()
        return lowered == "localhost" || lowered == "::1" || lowered == "0:0:0:0:0:0:0:1" || lowered.hasPrefix("127.")
    }

    private static func isKapeliURL(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard let schemeEnd = lowered.range(of: "://") else { return false }
        let rest = lowered[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@").last ?? authority
        let host = hostPort.split(separator: ":").first.map(String.init) ?? ""
        guard host == "kapeli.com" || host.hasSuffix(".kapeli.com") else { return false }
        return !rest.dropFirst(authority.count).contains("/user_contributed/")
    }
}
