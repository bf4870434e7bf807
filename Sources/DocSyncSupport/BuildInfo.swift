import CDocSyncSys

/// What this build is: the version (`git describe` when scripts/build-release built it) and the commit. Both come
/// from an object scripts/build-release links in, so the source tree never changes with the version; any other
/// build (debug, tests) says "dev" and "unknown".
package enum BuildInfo {
    /// `git describe --tags --dirty=+dirty` of the built tree (a `0.0.0-N-gHASH` form without a tag), or "dev".
    package static let version: String = {
        let text = String(cString: ds_build_version())
        return text.isEmpty ? "dev" : text
    }()

    /// The full commit hash of the built tree, or "unknown".
    package static let commit: String = {
        let text = String(cString: ds_build_commit())
        return text.isEmpty ? "unknown" : text
    }()

    /// `docsync --version`: "docsync VERSION (commit COMMIT)".
    package static var versionLine: String { "docsync \(version) (commit \(commit))" }
}
