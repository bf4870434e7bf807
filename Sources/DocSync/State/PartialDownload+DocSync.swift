package import DocSyncDownload

/// A download interrupted earlier, resumed by the next sync (``SyncEngine/partialDownloads()``): the downloader's
/// own record, named here so `status` and the daemon read it through `DocSync` rather than the download stage.
package typealias PartialDownload = DocSyncDownload.PartialDownload
