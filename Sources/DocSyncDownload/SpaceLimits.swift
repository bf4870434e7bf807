import DocSyncSupport

/// The disk bounds one transfer enforces while it receives (from `DownloadConfiguration`).
struct SpaceLimits: Sendable {
    var maxLength: Int64?
    var minFreeSpace: Int64 = 0
    /// Bytes written between two free-space checks.
    var checkInterval: Int64 = 8 << 20
    var freeSpace: @Sendable (String) throws(SystemError) -> Int64 = { path throws(SystemError) in
        try LinuxFS.freeSpace(at: path).bytes
    }

    init() {}

    init(_ configuration: DownloadConfiguration) {
        maxLength = configuration.maxLength
        minFreeSpace = configuration.minFreeSpace
        checkInterval = max(1, configuration.chunkSize)
        freeSpace = configuration.freeSpace
    }
}
