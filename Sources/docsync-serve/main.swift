// `docsync-serve`: the `docsync` command line with the HTTP front linked in. `docsync serve` and `docsync daemon`
// with `[serve]` exec it (same arguments); every other command runs as in `docsync`, which does not link
// Hummingbird or NIO.
import DocSync
import DocSyncCLI
import DocSyncServe

DocSyncCommand.runMain(
    serveHost: ServeHost(
        makeServer: { configuration, settings, logger in
            try DocServer(
                configuration: configuration, settings: settings, logger: logger,
                observers: SyncEngine.serveObservers(configuration))
        },
        isServerError: { $0 is ServeError }))
