import Foundation

/// Where Kapeli's archives live, as URL templates over a list of mirror bases (each the `feeds` folder of a host,
/// e.g. `https://london.kapeli.com/feeds`). Pure.
///
/// - official docset, latest: `<base>/<Name>.tgz`; older: `<base>/zzz/versions/<Name>/<V>/<Name>.tgz`
/// - user contribution: `<base>/zzz/user_contributed/build/<Key>/<archive>`;
///   specific version: `<base>/zzz/user_contributed/build/<Key>/versions/<V>/<archive>`
/// - cheat sheet: `<base>/zzz/cheatsheets/<Key>.tgz`
package struct CatalogAlternates: Sendable, Equatable {
    /// The five public hosts, in a fixed order (mirror learning reorders them per host health).
    package static let kapeli = ["sanfrancisco", "london", "newyork", "tokyo", "frankfurt"].map {
        "https://\($0).kapeli.com/feeds"
    }

    package var bases: [String]

    package init(bases: [String] = Self.kapeli) {
        self.bases = bases.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    package func docset(_ name: String) -> [String] { bases.map { "\($0)/\(Self.segment(name)).tgz" } }

    package func docset(_ name: String, version: String) -> [String] {
        let n = Self.segment(name)
        return bases.map { "\($0)/zzz/versions/\(n)/\(Self.segment(version))/\(n).tgz" }
    }

    package func contribution(_ key: String, archive: String, version: String? = nil) -> [String] {
        let folder = version.map { "\(Self.segment(key))/versions/\(Self.segment($0))" } ?? Self.segment(key)
        return bases.map { "\($0)/zzz/user_contributed/build/\(folder)/\(Self.segment(archive))" }
    }

    package func cheatsheet(_ key: String) -> [String] {
        bases.map { "\($0)/zzz/cheatsheets/\(Self.segment(key)).tgz" }
    }

    /// One path segment, percent-encoded where a URL needs it (`C++` stays, a space becomes `%20`).
    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Kapeli's version quirks. Pure.
package enum KapeliVersion {
    /// A version starting with `.` is completed with the feed name's suffix after its last `_`
    /// (`Python_3` + `.9.6` → `3.9.6`); other versions are returned trimmed.
    package static func complete(_ version: String, feedName: String) -> String {
        let trimmed = version.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("."), let underscore = feedName.lastIndex(of: "_") else { return trimmed }
        let suffix = feedName[feedName.index(after: underscore)...]
        guard !suffix.isEmpty else { return trimmed }
        return suffix + trimmed
    }

    /// The version part of `VERSION[/REVISION]`.
    package static func withoutRevision(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let slash = trimmed.firstIndex(of: "/") else { return trimmed }
        return String(trimmed[..<slash])
    }
}
