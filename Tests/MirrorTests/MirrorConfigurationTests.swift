import DocSync
import DocSyncConfigFile
import Testing

/// `[mirror]` is read strictly: both places required, base_url an http(s) URL, keep in range, errors naming the key.
@Suite(.timeLimit(.minutes(5))) struct MirrorConfigurationTests {
    func parse(_ text: String) throws -> DocSyncConfiguration {
        try DocSyncConfigurationLoader(environment: ["HOME": "/h"]).parse(text, file: "/c/docsync.toml", relativeTo: "/c")
    }

    @Test func readsEveryKeyWithPathsRelativeToTheFile() throws {
        let config = try parse(
            "[mirror]\ndir = \"www\"\nbase_url = \"https://docs.example.org\"\nkeep = 3\ngrace_period = \"2h\"\n")
        let mirror = try #require(config.mirror)
        #expect(mirror.directory == "/c/www" && mirror.baseURL == "https://docs.example.org")
        #expect(mirror.keep == 3 && mirror.gracePeriod == .seconds(7200))
        #expect(try parse("").mirror == nil)
    }

    @Test(arguments: [
        ("[mirror]\nbase_url = \"https://a\"\n", "mirror.dir"),
        ("[mirror]\ndir = \"w\"\n", "mirror.base_url"),
        ("[mirror]\ndir = \"w\"\nbase_url = \"ftp://a\"\n", "mirror.base_url"),
        ("[mirror]\ndir = \"w\"\nbase_url = \"https://a\"\nkeep = 0\n", "mirror.keep"),
        ("[mirror]\ndir = \"w\"\nbase_url = \"https://a\"\ngrace = \"1h\"\n", "mirror.grace"),
    ])
    func rejectsBadTablesNamingTheKey(text: String, key: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            (error as? DocSyncConfigurationError)?.key == key
        }
    }
}
