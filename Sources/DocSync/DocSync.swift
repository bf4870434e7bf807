// The library an indexing backend links: `import DocSync` brings every pipeline stage.
@_exported import DocSyncCatalog
@_exported import DocSyncDownload
@_exported import DocSyncFeed
@_exported import DocSyncHTTP
@_exported import DocSyncIndex
@_exported import DocSyncInstall
@_exported import DocSyncSupport
