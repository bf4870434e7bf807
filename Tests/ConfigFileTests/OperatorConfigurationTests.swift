import DocSync
import DocSyncConfigFile
import Foundation
import Testing

/// The keys the operator work added: `post_install_timeout` and `[metrics] textfile`.
@Suite(.timeLimit(.minutes(5))) struct OperatorConfigurationTests {
    let loader = DocSyncConfigurationLoader(environment: ["HOME": "/home/u"])

    @Test func hookTimeoutAndMetricsFileLoad() throws {
        let config = try loader.parse(
            "post_install = \"reindex\"\npost_install_timeout = \"90s\"\n[metrics]\ntextfile = \"metrics/docsync.prom\"\n",
            file: "/etc/docsync/docsync.toml", relativeTo: "/etc/docsync")
        #expect(config.postInstallTimeout == .seconds(90))
        #expect(config.metricsTextFile == "/etc/docsync/metrics/docsync.prom")
        let defaults = try loader.parse("", file: "f", relativeTo: "/")
        #expect(defaults.postInstallTimeout == .seconds(600) && defaults.metricsTextFile == nil)
    }

    @Test(arguments: [
        ("post_install_timeout = \"0s\"", "post_install_timeout", "must be more than 0"),
        ("post_install_timeout = \"soon\"", "post_install_timeout", "is not a duration"),
        ("[metrics]\ntextfile = 3", "metrics.textfile", "expected a string"),
        ("[metrics]\npath = \"x\"", "metrics.path", "unknown key"),
    ])
    func badValuesNameTheKey(text: String, key: String, problem: String) {
        do {
            _ = try loader.parse(text, file: "f.toml", relativeTo: "/")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.key == key && error.problem.contains(problem), "\(error)")
        }
    }
}
