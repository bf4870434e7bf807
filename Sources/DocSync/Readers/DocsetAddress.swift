/// How every command addresses one docset, and one version of a docset kept side by side: `NAME` (the folder name
/// without `.docset`, exact or ignoring case) or `NAME@VERSION`. A version kept beside the newest is its own docset
/// named `NAME@VERSION` (`<root>/NAME@VERSION.docset`); the newest keeps `NAME`, and `NAME@VERSION` with its version
/// addresses it too.
package enum DocsetAddress {
    /// The docset name a version kept side by side gets: `NAME@VERSION`.
    package static func sideName(_ name: String, version: String) -> String { "\(name)@\(version)" }

    /// The docset `address` names in `installed`: a docset of that name (exact, else ignoring case), else — for
    /// `NAME@VERSION` — the docset `NAME` whose version is `VERSION`; nil when there is none.
    package static func resolve(_ address: String, in installed: [InstalledDocset]) -> InstalledDocset? {
        if let named = installed.first(where: { $0.name == address })
            ?? installed.first(where: { $0.name.lowercased() == address.lowercased() })
        {
            return named
        }
        guard let (name, version) = split(address) else { return nil }
        return installed.first { $0.name.lowercased() == name.lowercased() && $0.version == version }
    }

    /// `NAME@VERSION` split at its last `@` (nil without one, or with an empty side).
    package static func split(_ address: String) -> (name: String, version: String)? {
        guard let at = address.lastIndex(of: "@") else { return nil }
        let name = String(address[..<at])
        let version = String(address[address.index(after: at)...])
        return name.isEmpty || version.isEmpty ? nil : (name, version)
    }

    /// Every installed version of the docset `name`, as `NAME@VERSION` (`NAME` for one without a version): the
    /// docset `name` and those named `name@…`, sorted.
    package static func versions(of name: String, in installed: [InstalledDocset]) -> [String] {
        let base = name.lowercased()
        return installed.compactMap { docset -> String? in
            let lowered = docset.name.lowercased()
            if lowered == base { return docset.version.map { sideName(docset.name, version: $0) } ?? docset.name }
            return lowered.hasPrefix(base + "@") ? docset.name : nil
        }.sorted()
    }

    /// Why `address` names nothing installed, when it is `NAME@VERSION` and `NAME` has versions installed: `no
    /// version V of NAME is installed (installed: …)`; nil otherwise (it resolves, or is a plain unknown name that the
    /// caller reports with its nearest names).
    package static func problem(_ address: String, in installed: [InstalledDocset]) -> String? {
        guard resolve(address, in: installed) == nil, let (name, version) = split(address) else { return nil }
        let versions = versions(of: name, in: installed)
        guard !versions.isEmpty else { return nil }
        return "no version \(version) of \(name) is installed (installed: \(versions.joined(separator: ", ")))"
    }
}
