import DocSync
extension DocSyncConfigurationLoader {
    /// `[mirror]`: `dir` and `base_url` (both required when the table is present), `keep`, `grace_period`, `kapeli_permission`.
    func readMirror(_ reader: inout TableReader, into config: inout DocSyncConfiguration) throws(DocSyncConfigurationError) {
        guard var table = try reader.table("mirror") else { return }
        guard let directory = try table.path("dir") else {
            throw table.error("dir", "missing (the folder your web server serves, e.g. \"/srv/docsets\")")
        }
        guard let base = try table.string("base_url"), base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw table.error("base_url", "missing or not an http(s) URL (where `dir` is served)")
        }
        var mirror = DocSyncConfiguration.Mirror(directory: directory, baseURL: base)
        mirror.keep = try table.int("keep", in: DocSyncConfiguration.mirrorKeepRange) ?? mirror.keep
        mirror.gracePeriod = try table.duration("grace_period") ?? mirror.gracePeriod
        mirror.kapeliPermission = try table.bool("kapeli_permission") ?? mirror.kapeliPermission
        try table.finish()
        config.mirror = mirror
    }
}
