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
        try Self.load(file: config, root: overrides.root, state: overrides.state)
    }

    /// `load(_:)` with the options' values (nil: not given).
    static func load(file: String?, root: String?, state: String?) throws -> DocSyncConfiguration {
        let loader = DocSyncConfigurationLoader.processEnvironment()
        var config: DocSyncConfiguration
        if root != nil, file == nil, loader.locate() == nil {
            config = loader.defaults()
        } else {
            config = try load(file: file)
        }
        func absolute(_ path: String) -> String {
            let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            return (full as NSString).standardizingPath
        }
        if let root { config.root = absolute(root) }
        if let state { config.state = absolute(state) }
        return config
    }
}
