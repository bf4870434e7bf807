// The library an indexing backend links. `import DocSync` gives the product surface only (SyncEngine,
// DocSyncConfiguration, SyncEvent and the values in it, SyncEvents, SyncService, DocsetLease, DocSyncJSON, the public
// errors: SyncError, SyncFailure, DocumentError, …) plus the read-only search over
// installed docsets (DocSyncIndex: DocsetIndex, SearchQuery, SearchResults, SearchHit, DocsetIndexError), which is
// re-exported because its public declarations are all product. The other stage modules (DocSyncSupport,
// DocSyncHTTP, DocSyncFeed, DocSyncDownload, DocSyncInstall, DocSyncCatalog) are imported with `package` access,
// so no public declaration here can expose their types, and they are not re-exported. `InstalledDocset` is product
// too, re-exported from its own module (DocSyncDocset) because the install stage's record carries one. Tools inside
// this package (the CLI, tests) import the stages they use explicitly. `scripts/api-surface` counts what `import DocSync` shows.
//
// Logging and ServiceLifecycle are re-exported because `SyncService`'s signature needs them (its `Logger`, and the
// `Service` it is, run in a `ServiceGroup`): a backend uses it with `import DocSync` alone.
@_exported import DocSyncDocset
@_exported import DocSyncIndex
@_exported import Logging
@_exported import ServiceLifecycle
