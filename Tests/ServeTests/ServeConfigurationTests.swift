import DocSync
import DocSyncConfigFile
import Testing

/// `[serve]` in `docsync.toml`: every key read, defaults when absent, bad values named by key.
@Suite(.timeLimit(.minutes(5))) struct ServeConfigurationTests {
    static func parse(_ text: String) throws -> DocSyncConfiguration {
        try DocSyncConfigurationLoader().parse("root = \"/r\"\n" + text, file: "/etc/docsync.toml", relativeTo: "/etc")
    }

    @Test func everyKeyIsRead() throws {
        #expect(try Self.parse("").serve == nil)
        #expect(try Self.parse("[serve]\n").serve == DocSyncConfiguration.Serve())
        let serve = try #require(
            try Self.parse(
                """
                [serve]
                listen = "[::1]:9000"
                allow_remote = true
                access_log = "logs/access.log"
                idle_timeout = "5s"
                header_timeout = "3s"
                body_timeout = "4s"
                request_timeout = "2s"
                max_connections = 64
                cache_max_age = "1h"
                page_cache_mib = 8
                """
            ).serve)
        #expect(serve.listen == "[::1]:9000" && serve.allowRemote)
        #expect(serve.accessLog == "/etc/logs/access.log")
        #expect(serve.idleTimeout == .seconds(5) && serve.requestTimeout == .seconds(2))
        #expect(serve.headerTimeout == .seconds(3) && serve.bodyTimeout == .seconds(4))
        let defaults = DocSyncConfiguration.Serve()
        #expect(defaults.headerTimeout == .seconds(10) && defaults.bodyTimeout == .seconds(10))
        #expect(defaults.maxConnections == 16_384)
        #expect(serve.maxConnections == 64 && serve.cacheMaxAge == .seconds(3600))
        #expect(serve.pageCacheMiB == 8 && DocSyncConfiguration.Serve().pageCacheMiB == 20)
        #expect(try Self.parse("[serve]\naccess_log = \"\"\n").serve?.accessLog == nil)
        #expect(try Self.parse("[serve]\naccess_log = \"-\"\n").serve?.accessLog == "-")
    }

    @Test func badValuesNameTheirKey() {
        for (text, key) in [
            ("[serve]\nmax_connections = 0\n", "serve.max_connections"),
            ("[serve]\npage_cache_mib = -1\n", "serve.page_cache_mib"),
            ("[serve]\nidle_timeout = \"0s\"\n", "serve.idle_timeout"),
            ("[serve]\nheader_timeout = \"0s\"\n", "serve.header_timeout"),
            ("[serve]\nbody_timeout = \"-1s\"\n", "serve.body_timeout"),
            ("[serve]\nmax_connections = 65537\n", "serve.max_connections"),
            ("[serve]\nlisten = 8484\n", "serve.listen"),
            ("[serve]\nlisen = \"x\"\n", "serve.lisen"),
        ] {
            do {
                _ = try Self.parse(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect("\(error)".contains(key), "\(error)")
            }
        }
    }
}
