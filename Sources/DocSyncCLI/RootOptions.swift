import ArgumentParser
import DocSync
import DocSyncConfigFile
import Foundation

/// `--root DIR` and `--state DIR` for commands that read a root (search, entries, status, verify): a root installed
/// with `docsync install --root` can be read without a configuration file.
struct RootOptions: ParsableArguments {
    @Option(help: "The docset root folder (default: the configuration's root).", completion: .directory)
    var root: String?

    @Option(help: "docsync's state folder (default: the configuration's state).", completion: .directory)
    var state: String?
}

extension ConfigOptions {
    /// The configuration with `--root` / `--state` applied. With `--root` and no configuration file (neither
    /// `--config` nor one found), docsync's defaults apply to everything else; a configuration file that exists is
    /// still read, and a bad one is still an error.
    func load(_ overrides: RootOptions) throws -> DocSyncConfiguration {
        let loader = DocSyncConfigurationLoader()
        var config: DocSyncConfiguration
        if overrides.root != nil, self.config == nil, loader.locate() == nil {
            config = loader.defaults()
        } else {
            config = try load()
        }
        func absolute(_ path: String) -> String {
            let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return (full as NSString).standardizingPath
        }
        if let root = overrides.root { config.root = absolute(root) }
        if let state = overrides.state { config.state = absolute(state) }
        return config
    }
}
