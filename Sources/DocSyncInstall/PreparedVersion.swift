/// A staged docset whose tree is complete and final, about to be made durable and published (see
/// `Installer.install(source:as:whenPrepared:)`).
package struct PreparedVersion: Sendable {
    /// The docset's name (`<root>/<name>.docset`).
    package var name: String
    /// The staged docset folder: readable until the publish renames it to `<root>/.docsync/versions/<version>`.
    package var path: String
    /// The name of the version folder it becomes.
    package var version: String
}
