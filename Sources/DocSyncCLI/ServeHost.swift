import DocSync
import Logging
import ServiceLifecycle

/// The HTTP front, for the commands that run it: `serve`, and `daemon` with `[serve]`. The `docsync` executable
/// does not link it — Hummingbird and NIO would cost every command, `fetch` included, their relocated data and
/// protocol conformance records (~0.6 MiB resident) — so there `current` is nil and those commands exec
/// `docsync-serve` (``ServeExecutable``), the same command line in a binary that links the server and sets
/// `current` for the run.
package struct ServeHost: Sendable {
    /// Makes the server service for a configuration and its `[serve]` settings; a configuration error throws.
    package var makeServer:
        @Sendable (DocSyncConfiguration, DocSyncConfiguration.Serve, Logger) throws -> any Service
    /// Whether an error out of the service group is the server's own (it could not start: exit 69).
    package var isServerError: @Sendable (any Error) -> Bool

    /// Makes a host from the server's constructor and its error test.
    package init(
        makeServer: @escaping @Sendable (DocSyncConfiguration, DocSyncConfiguration.Serve, Logger) throws
            -> any Service,
        isServerError: @escaping @Sendable (any Error) -> Bool
    ) {
        self.makeServer = makeServer
        self.isServerError = isServerError
    }

    /// The host of this run: set by `docsync-serve`'s `main`, nil in `docsync`.
    @TaskLocal package static var current: ServeHost?
}
