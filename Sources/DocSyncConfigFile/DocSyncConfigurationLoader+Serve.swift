import DocSync

extension DocSyncConfigurationLoader {
    /// `[serve]`: every key optional.
    func readServe(
        _ reader: inout TableReader, into config: inout DocSyncConfiguration
    ) throws(DocSyncConfigurationError) {
        guard var table = try reader.table("serve") else { return }
        var serve = DocSyncConfiguration.Serve()
        serve.listen = try table.string("listen") ?? serve.listen
        serve.allowRemote = try table.bool("allow_remote") ?? serve.allowRemote
        serve.kapeliPermission = try table.bool("kapeli_permission") ?? serve.kapeliPermission
        if let log = try table.string("access_log") {
            serve.accessLog = log.isEmpty ? nil : log == "-" ? "-" : try table.resolvePath(log, key: "access_log")
        }
        serve.idleTimeout = try table.duration("idle_timeout") ?? serve.idleTimeout
        serve.headerTimeout = try table.duration("header_timeout") ?? serve.headerTimeout
        serve.bodyTimeout = try table.duration("body_timeout") ?? serve.bodyTimeout
        serve.requestTimeout = try table.duration("request_timeout") ?? serve.requestTimeout
        serve.maxConnections =
            try table.int("max_connections", in: DocSyncConfiguration.serveConnectionsRange) ?? serve.maxConnections
        serve.cacheMaxAge = try table.duration("cache_max_age") ?? serve.cacheMaxAge
        serve.pageCacheMiB =
            try table.int("page_cache_mib", in: DocSyncConfiguration.servePageCacheRange) ?? serve.pageCacheMiB
        if serve.idleTimeout <= .zero { throw table.error("idle_timeout", "must be more than 0") }
        if serve.headerTimeout <= .zero { throw table.error("header_timeout", "must be more than 0") }
        if serve.bodyTimeout <= .zero { throw table.error("body_timeout", "must be more than 0") }
        if serve.requestTimeout <= .zero { throw table.error("request_timeout", "must be more than 0") }
        try table.finish()
        config.serve = serve
    }
}
