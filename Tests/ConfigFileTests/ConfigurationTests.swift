import DocSync
import DocSyncConfigFile
import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct ConfigurationTests {
    let loader = DocSyncConfigurationLoader(environment: ["HOME": "/home/u", "DOCS": "/srv/docs"])

    @Test func fullFileLoadsEveryKey() throws {
        let text = """
            root = "$DOCS/docsets"
            staging = "~/cache/staging"
            state = "state"
            prune = true
            post_install = "/usr/local/bin/reindex"

            [network]
            concurrency = 4
            per_host = 1
            connections = 6
            retries = 3
            connect_timeout = "10s"
            stall_timeout = 45
            rate_limit = "5M"
            proxy = "http://proxy:3128"

            [install]
            grace_period = "1h30m"
            streaming = false

            [[feed]]
            url = "https://example.org/feeds/Swift.xml"
            name = "Swift"

            [[feed]]
            url = "feeds/apple.atom"
            identifier = "com.apple.adc.documentation"
            version = "13.x/2"
            """
        let config = try loader.parse(text, file: "/etc/docsync/docsync.toml", relativeTo: "/etc/docsync")
        #expect(config.root == "/srv/docs/docsets")
        #expect(config.staging == "/home/u/cache/staging")
        #expect(config.state == "/etc/docsync/state")
        #expect(config.prune && config.postInstallHook == "/usr/local/bin/reindex")
        #expect(config.network.concurrency == 4 && config.network.perHost == 1 && config.network.retries == 3)
        #expect(config.network.connections == 6)
        #expect(config.network.connectTimeout == .seconds(10) && config.network.stallTimeout == .seconds(45))
        #expect(config.network.rateLimit == 5 << 20 && config.network.proxy == "http://proxy:3128")
        #expect(config.install.gracePeriod == .seconds(5400) && !config.install.streaming)
        #expect(config.feeds.count == 2)
        #expect(config.feeds[0] == .init(location: "https://example.org/feeds/Swift.xml", name: "Swift"))
        #expect(config.feeds[1].location == "/etc/docsync/feeds/apple.atom")
        #expect(config.feeds[1].identifier == "com.apple.adc.documentation" && config.feeds[1].version == "13.x/2")
    }

    @Test func emptyFileGivesXDGDefaults() throws {
        let env = ["HOME": "/home/u", "XDG_STATE_HOME": "/var/xdgstate"]
        let config = try DocSyncConfigurationLoader(environment: env).parse("", file: "f", relativeTo: "/")
        #expect(config.root == "/home/u/.local/share/Zeal/Zeal/docsets")
        #expect(config.staging == "/home/u/.cache/docsync/staging")
        #expect(config.state == "/var/xdgstate/docsync")
        #expect(!config.prune && config.install.streaming && config.feeds.isEmpty)
    }

    /// Each row: a file, the key the error must name, and a fragment of the problem.
    @Test(arguments: [
        ("rooot = \"/x\"", "rooot", "unknown key"),
        ("[network]\nretrys = 3", "network.retrys", "unknown key"),
        ("[[feed]]\nurl = \"/f.xml\"\nnmae = \"x\"", "feed[1].nmae", "unknown key"),
        ("prune = \"yes\"", "prune", "expected true or false, found string"),
        ("[network]\nconcurrency = 0", "network.concurrency", "out of range"),
        ("[network]\nconnections = 0", "network.connections", "out of range"),
        ("[network]\nconnect_timeout = \"soon\"", "network.connect_timeout", "not a duration"),
        ("[network]\nrate_limit = \"fast\"", "network.rate_limit", "not a byte size"),
        ("[install]\ngrace_period = -5", "install.grace_period", "must not be negative"),
        ("root = \"$NOPE/x\"", "root", "environment variable NOPE is not set"),
        ("[[feed]]\nname = \"x\"", "feed[1].url", "missing"),
        ("[[feed]]\nurl = \"ftp://h/f.xml\"", "feed[1].url", "only http, https"),
        ("[[feed]]\nurl = \"/f.xml\"\nname = \"../etc\"", "feed[1].name", "not a safe folder name"),
        ("network = 3", "network", "expected a table"),
        ("root = ", "", "line 1"),
    ])
    func badFilesNameTheKey(text: String, key: String, problem: String) {
        #expect {
            _ = try loader.parse(text, file: "/c/docsync.toml", relativeTo: "/c")
        } throws: { error in
            guard let error = error as? DocSyncConfigurationError else { return false }
            return error.key == key && error.problem.contains(problem) && error.file == "/c/docsync.toml"
        }
    }

    @Test func searchOrderFollowsXDG() {
        let env = ["HOME": "/h", "XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/a:/b", "DOCSYNC_CONFIG": "/x.toml"]
        #expect(
            DocSyncConfigurationLoader(environment: env).searchPath() == [
                "/x.toml", "/cfg/docsync/docsync.toml", "/a/docsync/docsync.toml", "/b/docsync/docsync.toml",
                "/etc/docsync/docsync.toml",
            ])
        #expect(DocSyncConfigurationLoader(environment: ["HOME": "/h"]).searchPath()[0] == "/h/.config/docsync/docsync.toml")
    }

    /// The command line's loader reads each variable from the process (getenv) as it needs it: the same search path,
    /// defaults and `$VAR` expansions as a loader given the process's whole environment, and one given an
    /// environment afterwards reads that.
    @Test func theProcessEnvironmentLoaderReadsWhatTheDictionaryWouldHold() throws {
        let process = DocSyncConfigurationLoader.processEnvironment()
        let copied = DocSyncConfigurationLoader()
        #expect(process.searchPath() == copied.searchPath())
        #expect(process.defaults() == copied.defaults())
        let text = "root = \"$HOME/docsets\"\nstate = \"~/state\"\n"
        let parsed = try process.parse(text, file: "/c/d.toml", relativeTo: "/c")
        #expect(parsed == (try copied.parse(text, file: "/c/d.toml", relativeTo: "/c")))
        #expect(parsed.root.hasSuffix("/docsets") && !parsed.root.contains("$"))
        var given = process
        given.environment = ["HOME": "/given"]
        #expect(given.variable("HOME") == "/given" && given.defaults().state == "/given/.local/state/docsync")
    }

    @Test func theShippedDefaultConfigurationLoads() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../config/docsync.toml").standardized.path
        let config = try DocSyncConfigurationLoader(environment: ["HOME": "/home/u"]).load(file: file)
        #expect(config.root == "/home/u/.local/share/Zeal/Zeal/docsets")
        #expect(!config.prune)
    }
}

@Suite(.timeLimit(.minutes(5))) struct ValueSyntaxTests {
    @Test(arguments: [
        ("90", 90), ("90s", 90), ("10m", 600), ("6h", 21600), ("1h30m", 5400), ("2d", 172_800), (" 5M ", 300),
    ])
    func durations(text: String, seconds: Int64) { #expect(ValueSyntax.duration(text) == .seconds(seconds)) }

    @Test(arguments: ["", "h", "5x", "1.5h", "-3s", "10m5"])
    func badDurations(text: String) { #expect(ValueSyntax.duration(text) == nil) }

    @Test(arguments: [("0", 0), ("512", 512), ("500K", 512_000), ("5MB", 5_242_880), ("1GiB", 1_073_741_824)])
    func byteSizes(text: String, bytes: Int64) { #expect(ValueSyntax.byteSize(text) == bytes) }

    @Test(arguments: ["", "K", "5T", "-1", "99999999999999999G"])
    func badByteSizes(text: String) { #expect(ValueSyntax.byteSize(text) == nil) }

    @Test(arguments: [
        ("~", "/h"), ("~/x", "/h/x"), ("$A/b", "/a/b"), ("${A}b", "/ab"), ("x~/y", "x~/y"), ("cost$", "cost$"),
        ("~user", "~user"),
    ])
    func paths(text: String, expanded: String) throws {
        #expect(try ValueSyntax.expandPath(text, environment: ["HOME": "/h", "A": "/a"]) == expanded)
    }
}

@Suite(.timeLimit(.minutes(5))) struct DocsetNameTests {
    @Test(arguments: [
        ("Swift", "Swift"), ("C++", "C++"), ("Android (Kotlin)", "Android (Kotlin)"), ("../../etc", "_.._etc"),
        ("a/b", "a_b"), (".hidden", "hidden"), ("X.docset", "X"), ("", "docset"), ("Ünïcode 日本", "Ünïcode 日本"),
        ("tab\there", "tab_here"),
    ])
    func safeNames(input: String, safe: String) { #expect(DocsetName.safe(input) == safe) }
}
