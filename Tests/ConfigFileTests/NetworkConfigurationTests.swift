import DocSync
import DocSyncConfigFile
import Foundation
import Testing

/// The limit and network-policy keys: their defaults, the shipped file, and errors naming them.
@Suite(.timeLimit(.minutes(5))) struct NetworkConfigurationTests {
    let loader = DocSyncConfigurationLoader(environment: ["HOME": "/home/u"])

    @Test func everyKeyLoads() throws {
        let text = """
            [network]
            min_speed = "4K"
            feed_timeout = "30s"
            require_https = true
            allow_private_redirects = true
            [install]
            max_archive_size = "500M"
            min_free_space = "0"
            """
        let config = try loader.parse(text, file: "/c/docsync.toml", relativeTo: "/c")
        #expect(config.network.minSpeed == 4096 && config.network.feedTimeout == .seconds(30))
        #expect(config.network.requireHTTPS && config.network.allowPrivateRedirects)
        #expect(config.install.maxArchiveSize == 500 << 20 && config.install.minFreeSpace == 0)
    }

    @Test func theDefaultsAreTheShippedFile() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/docsync.toml").standardized.path
        let shipped = try loader.load(file: file)
        let defaults = try loader.parse("", file: "f", relativeTo: "/")
        #expect(shipped.network == defaults.network && shipped.install == defaults.install)
        #expect(defaults.network.minSpeed == 1024 && defaults.network.feedTimeout == .seconds(120))
        #expect(!defaults.network.requireHTTPS && !defaults.network.allowPrivateRedirects)
        #expect(defaults.install.maxArchiveSize == 4 << 30 && defaults.install.minFreeSpace == 1 << 30)
    }

    @Test(arguments: [
        ("[network]\nmin_speed = \"slow\"", "network.min_speed", "not a byte size"),
        ("[network]\nfeed_timeout = \"later\"", "network.feed_timeout", "not a duration"),
        ("[network]\nrequire_https = \"yes\"", "network.require_https", "expected true or false"),
        ("[network]\nallow_private_redirects = 1", "network.allow_private_redirects", "expected true or false"),
        ("[install]\nmax_archive_size = \"4T\"", "install.max_archive_size", "not a byte size"),
        ("[install]\nmin_free_space = -1", "install.min_free_space", "must not be negative"),
        ("[network]\nrequire_https = true\n[[feed]]\nurl = \"http://h/f.xml\"", "feed[1].url", "require_https"),
    ])
    func badValuesNameTheKey(text: String, key: String, problem: String) {
        #expect {
            _ = try loader.parse(text, file: "/c/docsync.toml", relativeTo: "/c")
        } throws: { error in
            guard let error = error as? DocSyncConfigurationError else { return false }
            return error.key == key && error.problem.contains(problem)
        }
    }
}
