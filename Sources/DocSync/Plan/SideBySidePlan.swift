/// Where `docsync install ARCHIVE --name NAME --version V --side-by-side` puts version V, keeping the versions
/// installed: the newest version keeps `NAME` (`NAME.docset`), every other one is its own docset `NAME@VERSION`
/// (``DocsetAddress/sideName(_:version:)``), with a `meta.json` name and title of its own so that Zeal, which keys
/// docsets by name, loads each. A pure function of the request and what is installed.
package struct SideBySidePlan: Sendable, Equatable {
    /// When V is newer than the version `NAME` holds now: that version is first installed again as
    /// `NAME@ITS_VERSION` (titled `title`), then V replaces it as `NAME`.
    package struct Demotion: Sendable, Equatable {
        package var version: String
        package var name: String
        package var title: String

        /// Moves the version `version` to the docset `name` titled `title`.
        package init(version: String, name: String, title: String) {
            self.version = version
            self.name = name
            self.title = title
        }
    }

    /// The docset name V is installed as: `NAME` or `NAME@V`.
    package var name: String
    /// V's title: the given title (default: NAME) followed by the version.
    package var title: String
    /// The version `NAME` holds now, kept under its own name first; nil when nothing moves.
    package var demotion: Demotion?

    /// A plan installing as `name` titled `title`, moving `demotion` aside first.
    package init(name: String, title: String, demotion: Demotion?) {
        self.name = name
        self.title = title
        self.demotion = demotion
    }

    /// Why V cannot be kept side by side (`NAME` is installed without a version, so it has no name to move to);
    /// nil when it can.
    package static func problem(name: String, installed: [InstalledDocset]) -> String? {
        guard let current = installed.first(where: { $0.name == name }), current.version?.isEmpty ?? true else {
            return nil
        }
        return "\(name) is installed without a version: install it again with a version first"
    }

    /// The plan for version `version` of `name` titled `title` over `installed` (check ``problem(name:installed:)``
    /// first: a current version without a version number is replaced).
    package static func plan(name: String, version: String, title: String?, installed: [InstalledDocset]) -> Self {
        let title = "\(title ?? name) \(version)"
        let side = DocsetAddress.sideName(name, version: version)
        guard let current = installed.first(where: { $0.name == name }), let held = current.version,
            !installed.contains(where: { $0.name == side }), held != version
        else {
            let kept = installed.contains { $0.name == side }
            return Self(name: kept ? side : name, title: title, demotion: nil)
        }
        guard DocsetVersion(dash: version) > DocsetVersion(dash: held) else {
            return Self(name: side, title: title, demotion: nil)
        }
        let suffix = " \(held)"
        let heldTitle = current.title.hasSuffix(suffix) ? current.title : current.title + suffix
        return Self(
            name: name, title: title,
            demotion: Demotion(
                version: held, name: DocsetAddress.sideName(name, version: held), title: heldTitle))
    }
}
