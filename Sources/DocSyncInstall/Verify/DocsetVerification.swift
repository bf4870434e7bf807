/// The result of comparing one installed docset with the manifest recorded when it was installed.
package struct DocsetVerification: Sendable, Equatable {
    package enum Status: Sendable, Equatable {
        /// Every path, size and content hash is as installed.
        case intact
        /// These differences (missing, changed, unexpected paths); `sync --repair` reinstalls it.
        case damaged([String])
        /// Not checkable: not installed, not docsync's, or installed before docsync recorded manifests.
        case unverifiable(String)
    }

    /// The docset name (`NAME.docset`).
    package var name: String
    /// The version folder checked, when there is one.
    package var path: String?
    package var status: Status

    package init(name: String, path: String?, status: Status) {
        self.name = name
        self.path = path
        self.status = status
    }

    /// True when the docset is damaged.
    package var isDamaged: Bool {
        if case .damaged = status { return true }
        return false
    }
}
