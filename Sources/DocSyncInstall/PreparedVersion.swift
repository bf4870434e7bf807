/// A staged docset handed to the installer's `whenPrepared` (see `Installer.install(source:as:whenPrepared:)`):
/// once when its tree is extracted and checked, and again when it is complete and final, about to be made durable
/// and published.
package struct PreparedVersion: Sendable {
    /// How far the staged tree is.
    package enum Stage: Sendable {
        /// Extracted and checked: its index's entries are final, but `docSet.dsidx` is still completed for Zeal
        /// (`ZealPreparation` writes it) before the next stage.
        case extracted
        /// Complete and final: nothing in the tree changes any more before it is published.
        case prepared
    }

    /// The docset's name (`<root>/<name>.docset`).
    package var name: String
    /// The staged docset folder: readable until the publish renames it to `<root>/.docsync/versions/<version>`.
    package var path: String
    /// The name of the version folder it becomes.
    package var version: String
    package var stage: Stage = .prepared
}
