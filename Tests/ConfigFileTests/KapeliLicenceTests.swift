import DocSync
import DocSyncConfigFile
import Testing

/// Kapeli's licence (``KapeliLicence``): which docsets it covers, the warnings `mirror publish` and a `serve` beyond
/// loopback print, and the `kapeli_permission` keys that silence them.
@Suite(.timeLimit(.minutes(5))) struct KapeliLicenceTests {
    @Test(arguments: [
        ("https://kapeli.com/feeds/Python_3.xml", nil, true),
        (nil, "https://london.kapeli.com/feeds/Python_3.tgz", true),
        ("https://KAPELI.com/feeds/zzz/cheatsheets/Vim.xml", nil, true),
        (nil, "https://user:pw@frankfurt.kapeli.com:443/feeds/zzz/versions/Go/1.20/Go.tgz", true),
        (nil, "https://kapeli.com/feeds/zzz/user_contributed/build/Lodash/Lodash.tgz", false),
        ("https://docs.example.org/feeds/Go.xml", "https://docs.example.org/Go.tgz", false),
        ("https://kapeli.com.example.org/Go.xml", nil, false),
        ("https://example.org/kapeli.com/Go.xml", nil, false),
        ("/srv/feeds/Go.xml", "file:///srv/Go.tgz", false),
        (nil, nil, false),
    ] as [(String?, String?, Bool)])
    func coversKapeliURLsOnly(feed: String?, source: String?, covered: Bool) {
        #expect(KapeliLicence.covers(feedURL: feed, sourceURL: source) == covered)
    }

    @Test(arguments: [
        ("127.0.0.1:8484", true), ("127.1.2.3:80", true), ("localhost:8484", true), ("[::1]:8484", true),
        ("0.0.0.0:8484", false), ("[::]:8484", false), ("192.168.1.4:8484", false), ("docs.example.org:80", false),
    ])
    func loopbackListenAddresses(listen: String, loopback: Bool) {
        #expect(KapeliLicence.isLoopback(listen: listen) == loopback)
    }

    @Test func oneWarningPerKapeliDocsetUnlessPermitted() {
        let docsets = [
            InstalledDocset(
                name: "Python_3", path: "/r/Python_3.docset", feedURL: "https://kapeli.com/feeds/Python_3.xml"),
            InstalledDocset(name: "Go", path: "/r/Go.docset", sourceURL: "https://tokyo.kapeli.com/feeds/Go.tgz"),
            InstalledDocset(
                name: "Lodash", path: "/r/Lodash.docset",
                sourceURL: "https://kapeli.com/feeds/zzz/user_contributed/build/Lodash/Lodash.tgz"),
            InstalledDocset(name: "Mine", path: "/r/Mine.docset", feedURL: "https://docs.example.org/Mine.xml"),
        ]
        let warnings = KapeliLicence.warnings(for: docsets, permission: false, key: "[mirror] kapeli_permission")
        #expect(warnings.count == 2)
        #expect(warnings[0].hasPrefix("Go is a Kapeli docset: ") && warnings[1].hasPrefix("Python_3 is a Kapeli"))
        #expect(warnings.allSatisfy { $0.contains("only personally or with Dash or Zeal") })
        #expect(warnings.allSatisfy { $0.hasSuffix("set [mirror] kapeli_permission = true once you have it") })
        #expect(KapeliLicence.warnings(for: docsets, names: ["Go", "Mine"], permission: false, key: "k").count == 1)
        #expect(KapeliLicence.warnings(for: docsets, permission: true, key: "k").isEmpty)
    }

    @Test func permissionKeysAreReadAndValidated() throws {
        let loader = DocSyncConfigurationLoader()
        let base = "root = \"/r\"\n"
        let mirror = "[mirror]\ndir = \"/srv/m\"\nbase_url = \"https://m.example.org\"\n"
        #expect(try loader.parse(base + mirror, file: "/c.toml", relativeTo: "/").mirror?.kapeliPermission == false)
        let permitted = try loader.parse(base + mirror + "kapeli_permission = true\n", file: "/c.toml", relativeTo: "/")
        #expect(permitted.mirror?.kapeliPermission == true)
        let serve = try loader.parse(base + "[serve]\nkapeli_permission = true\n", file: "/c.toml", relativeTo: "/")
        #expect(serve.serve?.kapeliPermission == true && DocSyncConfiguration.Serve().kapeliPermission == false)
        for (text, key) in [
            (mirror + "kapeli_permission = \"yes\"\n", "mirror.kapeli_permission"),
            ("[serve]\nkapeli_permission = 1\n", "serve.kapeli_permission"),
        ] {
            #expect {
                _ = try loader.parse(base + text, file: "/c.toml", relativeTo: "/")
            } throws: { error in
                (error as? DocSyncConfigurationError)?.key == key
            }
        }
    }
}
