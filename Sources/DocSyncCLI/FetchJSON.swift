import DocSync

/// The `fetch --json` object (documented in Sources/DocSync/DocSync.docc/JSONObjects.md).
struct FetchJSON: Encodable {
    var schema = DocSyncJSON.schema
    /// The URL asked for.
    var url: String
    /// The URL that served the file (a mirror, or `url`).
    var mirror: String
    var bytes: Int64
    var sha256: String
    var resumedFrom: Int64
    var attempts: Int
    var seconds: Double
    var path: String
    /// The mirrors excluded from this download and why (empty when none was).
    var alternateFaults: [AlternateFaultJSON]

    enum CodingKeys: String, CodingKey {
        case schema, url, mirror, bytes, sha256, attempts, seconds, path
        case resumedFrom = "resumed_from"
        case alternateFaults = "mirror_faults"
    }

    init(_ result: FileFetch.Outcome, requested: String) {
        url = requested.redactingCredentials
        mirror = result.url.redactingCredentials
        bytes = result.bytes
        sha256 = result.sha256
        resumedFrom = result.resumedFrom
        attempts = result.attempts
        seconds = (result.seconds * 1000).rounded() / 1000
        path = result.path
        alternateFaults = result.alternateFaults.map(AlternateFaultJSON.init)
    }
}
