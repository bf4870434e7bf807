import DocSync
internal import DocSyncSupport
import Foundation
import TOMLKit

/// Reads `docsync.toml` strictly: unknown keys, wrong types and bad values are errors naming the key.
/// The only user of TOMLKit. Relative paths are taken relative to the file's directory; `~` and `$VAR` expand.
public struct DocSyncConfigurationLoader: Sendable {
    /// The environment `$VAR`, `~` (`HOME`) and the XDG defaults are read from (empty in a loader of
    /// ``processEnvironment()`` until it is set).
    public var environment: [String: String] {
        didSet { readsProcess = false }
    }

    /// Whether variables are read from the process's environment (`getenv`) instead of `environment`.
    private var readsProcess = false

    /// A loader reading `environment` (by default the process's).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// A loader reading the process's variables one by one as it needs them (`getenv`): the command line's.
    /// `ProcessInfo.processInfo.environment` copies every variable into a `[String: String]`, and that `Dictionary`'s
    /// first use checks `String`'s `Hashable` conformance against every conformance record in the binary (#35: with
    /// ProcessInfo's own set-up, a tenth of `changes --since`'s start-up).
    package static func processEnvironment() -> Self {
        var loader = Self(environment: [:])
        loader.readsProcess = true
        return loader
    }

    /// The variable `name`; nil when it is not set.
    package func variable(_ name: String) -> String? {
        guard readsProcess else { return environment[name] }
        return getenv(name).map { String(cString: $0) }
    }

    /// The file to use when `--config` is absent, in order: `$DOCSYNC_CONFIG`, `$XDG_CONFIG_HOME/docsync/docsync.toml`
    /// (default `~/.config`), each `$XDG_CONFIG_DIRS` entry (default `/etc/xdg`) + `/docsync/docsync.toml`, then
    /// `/etc/docsync/docsync.toml`.
    public func searchPath() -> [String] {
        var candidates: [String] = []
        if let explicit = variable("DOCSYNC_CONFIG"), !explicit.isEmpty { candidates.append(explicit) }
        let home = variable("HOME") ?? NSHomeDirectory()
        let configHome = variable("XDG_CONFIG_HOME").flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.config"
        candidates.append("\(configHome)/docsync/docsync.toml")
        let dirs = variable("XDG_CONFIG_DIRS").flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        candidates += dirs.split(separator: ":").map { "\($0)/docsync/docsync.toml" }
        candidates.append("/etc/docsync/docsync.toml")
        return candidates
    }

    /// The first file of ``searchPath()`` that exists; nil when none does.
    public func locate() -> String? { searchPath().first { FileManager.default.fileExists(atPath: $0) } }

    /// A configuration file larger than this (1 MiB) is refused unread.
    package static let maximumFileSize = 1 << 20

    /// Reads and checks `file`; relative paths in it are taken relative to its folder.
    public func load(file: String) throws(DocSyncConfigurationError) -> DocSyncConfiguration {
        let read: [UInt8]?
        do throws(SystemError) { read = try RegularFile.read(path: file, limit: Self.maximumFileSize) } catch {
            throw DocSyncConfigurationError(file: file, key: "", problem: "cannot read the file: \(error)")
        }
        guard let bytes = read else {
            throw DocSyncConfigurationError(file: file, key: "", problem: "cannot read the file (it does not exist)")
        }
        let data = Data(bytes)
        guard let text = String(data: data, encoding: .utf8) else {
            throw DocSyncConfigurationError(file: file, key: "", problem: "not UTF-8 text")
        }
        let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        return try parse(text, file: file, relativeTo: (absolute as NSString).deletingLastPathComponent)
    }

    /// The defaults used for keys a file leaves out (XDG base directories).
    public func defaults() -> DocSyncConfiguration {
        let home = variable("HOME") ?? NSHomeDirectory()
        func xdg(_ name: String, _ fallback: String) -> String {
            variable(name).flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/\(fallback)"
        }
        return DocSyncConfiguration(
            root: "\(xdg("XDG_DATA_HOME", ".local/share"))/Zeal/Zeal/docsets",
            staging: "\(xdg("XDG_CACHE_HOME", ".cache"))/docsync/staging",
            state: "\(xdg("XDG_STATE_HOME", ".local/state"))/docsync")
    }

    /// Checks TOML `text` as if read from `file`; relative paths are taken relative to `directory`.
    public func parse(_ text: String, file: String, relativeTo directory: String) throws(DocSyncConfigurationError)
        -> DocSyncConfiguration
    {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let at = error.source.begin
            throw DocSyncConfigurationError(
                file: file, key: "", problem: "line \(at.line), column \(at.column): \(error.description)")
        } catch {
            throw DocSyncConfigurationError(file: file, key: "", problem: "\(error)")
        }
        var reader = TableReader(file: file, prefix: "", table: table, loader: self, directory: directory)
        var config = defaults()
        config.root = try reader.path("root") ?? config.root
        config.staging = try reader.path("staging") ?? config.staging
        config.state = try reader.path("state") ?? config.state
        config.prune = try reader.bool("prune") ?? config.prune
        config.postInstallHook = try reader.string("post_install").flatMap { $0.isEmpty ? nil : $0 }
        config.postInstallTimeout = try reader.duration("post_install_timeout") ?? config.postInstallTimeout
        if config.postInstallTimeout <= .zero { throw reader.error("post_install_timeout", "must be more than 0") }
        if var network = try reader.table("network") {
            let concurrency = DocSyncConfiguration.concurrencyRange
            config.network.concurrency = try network.int("concurrency", in: concurrency) ?? config.network.concurrency
            config.network.perHost = try network.int("per_host", in: concurrency) ?? config.network.perHost
            config.network.connections =
                try network.int("connections", in: DocSyncConfiguration.connectionsRange) ?? config.network.connections
            config.network.retries =
                try network.int("retries", in: DocSyncConfiguration.retriesRange) ?? config.network.retries
            config.network.connectTimeout = try network.duration("connect_timeout") ?? config.network.connectTimeout
            config.network.stallTimeout = try network.duration("stall_timeout") ?? config.network.stallTimeout
            config.network.rateLimit = try network.byteSize("rate_limit") ?? config.network.rateLimit
            config.network.minSpeed = try network.byteSize("min_speed") ?? config.network.minSpeed
            config.network.feedTimeout = try network.duration("feed_timeout") ?? config.network.feedTimeout
            config.network.proxy = try network.string("proxy").flatMap { $0.isEmpty ? nil : $0 }
            config.network.caFile = try network.readableFile("ca_file")
            config.network.requireHTTPS = try network.bool("require_https") ?? config.network.requireHTTPS
            config.network.allowPrivateRedirects =
                try network.bool("allow_private_redirects") ?? config.network.allowPrivateRedirects
            config.network.allowLinkLocal = try network.bool("allow_link_local") ?? config.network.allowLinkLocal
            try network.finish()
        }
        if var install = try reader.table("install") {
            config.install.gracePeriod = try install.duration("grace_period") ?? config.install.gracePeriod
            config.install.streaming = try install.bool("streaming") ?? config.install.streaming
            config.install.replaceForeign = try install.bool("replace_foreign") ?? config.install.replaceForeign
            config.install.partialMaxAge = try install.duration("partial_max_age") ?? config.install.partialMaxAge
            config.install.maxArchiveSize = try install.byteSize("max_archive_size") ?? config.install.maxArchiveSize
            config.install.minFreeSpace = try install.byteSize("min_free_space") ?? config.install.minFreeSpace
            try Self.readLayouts(&install, into: &config.install)
            try install.finish()
        }
        if var search = try reader.table("search") {
            config.search.fullText = try search.bool("full_text") ?? config.search.fullText
            if var docsets = try search.table("full_text_docsets") {
                for name in docsets.table.keys.sorted() {
                    if let on = try docsets.bool(name) { config.search.fullTextDocsets[name] = on }
                }
                try docsets.finish()
            }
            try search.finish()
        }
        if var changes = try reader.table("changes") {
            config.changes.keep = try changes.duration("keep") ?? config.changes.keep
            if config.changes.keep <= .zero { throw changes.error("keep", "must be more than 0") }
            try changes.finish()
        }
        if var metrics = try reader.table("metrics") {
            config.metricsTextFile = try metrics.string("textfile").flatMap { $0.isEmpty ? nil : $0 }
                .map { text throws(DocSyncConfigurationError) in try metrics.resolvePath(text, key: "textfile") }
            try metrics.finish()
        }
        for (index, var feed) in try reader.tables("feed").enumerated() {
            guard let location = try feed.string("url") else {
                throw DocSyncConfigurationError.missingValue(
                    file: file, key: "feed[\(index + 1)].url", problem: "missing (a path or URL)")
            }
            let isRemote = location.hasPrefix("http://") || location.hasPrefix("https://")
            if location.contains("://") && !isRemote {
                throw DocSyncConfigurationError(
                    file: file, key: "feed[\(index + 1)].url", problem: "only http, https and local paths are supported"
                )
            }
            if config.network.requireHTTPS, location.lowercased().hasPrefix("http://") {
                throw DocSyncConfigurationError(
                    file: file, key: "feed[\(index + 1)].url",
                    problem: "plain http while [network] require_https = true")
            }
            let resolved = isRemote ? location : try feed.resolvePath(location, key: "url")
            let name = try feed.string("name")
            if let name, DocsetName.safe(name) != name {
                throw DocSyncConfigurationError(
                    file: file, key: "feed[\(index + 1)].name",
                    problem: "\"\(name.escapingControlCharacters)\" is not a safe folder name "
                        + "(try \"\(DocsetName.safe(name))\")")
            }
            config.feeds.append(
                DocSyncConfiguration.FeedSource(
                    location: resolved, name: name, identifier: try feed.string("identifier"),
                    version: try feed.string("version")))
            try feed.finish()
        }
        try readCatalogs(&reader, into: &config)
        try readGroups(&reader, into: &config)
        try readMirror(&reader, into: &config)
        try readServe(&reader, into: &config)
        try reader.finish()
        return config
    }

    func expand(_ value: String, file: String, key: String, directory: String) throws(DocSyncConfigurationError) -> String {
        let expanded: String
        do {
            expanded = try ValueSyntax.expandPath(value) { variable($0) }
        } catch {
            throw DocSyncConfigurationError(file: file, key: key, problem: "environment variable \(error.name) is not set")
        }
        guard !expanded.isEmpty else { throw DocSyncConfigurationError(file: file, key: key, problem: "empty path") }
        let absolute = expanded.hasPrefix("/") ? expanded : "\(directory)/\(expanded)"
        return (absolute as NSString).standardizingPath
    }
}

/// Reads typed values from one TOML table and remembers which keys were used, so `finish()` can reject the rest.
struct TableReader {
    let file: String
    let prefix: String
    let table: TOMLTable
    let loader: DocSyncConfigurationLoader
    let directory: String
    var used: Set<String> = []

    init(file: String, prefix: String, table: TOMLTable, loader: DocSyncConfigurationLoader, directory: String) {
        self.file = file
        self.prefix = prefix
        self.table = table
        self.loader = loader
        self.directory = directory
    }

    func error(_ key: String, _ problem: String) -> DocSyncConfigurationError {
        DocSyncConfigurationError(file: file, key: prefix + key, problem: problem)
    }

    mutating func value(_ key: String) -> (any TOMLValueConvertible)? {
        used.insert(key)
        return table[key]
    }

    mutating func typed<T>(_ key: String, _ kind: String, _ extract: (any TOMLValueConvertible) -> T?)
        throws(DocSyncConfigurationError) -> T?
    {
        guard let raw = value(key) else { return nil }
        guard let value = extract(raw) else { throw error(key, "expected \(kind), found \(raw.type)") }
        return value
    }

    mutating func string(_ key: String) throws(DocSyncConfigurationError) -> String? {
        try typed(key, "a string") { $0.string }
    }

    mutating func bool(_ key: String) throws(DocSyncConfigurationError) -> Bool? {
        try typed(key, "true or false") { $0.type == .bool ? $0.bool : nil }
    }

    mutating func int(_ key: String, in range: ClosedRange<Int>) throws(DocSyncConfigurationError) -> Int? {
        guard let value = try typed(key, "an integer", { $0.int }) else { return nil }
        guard range.contains(value) else {
            throw error(key, "\(value) is out of range \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    mutating func duration(_ key: String) throws(DocSyncConfigurationError) -> Duration? {
        try quantity(
            key, kind: "a duration", unit: "seconds", maximum: "3650 days",
            examples: #""90s", "10m", "6h", "1h30m""#, integer: { ValueSyntax.duration(seconds: $0) },
            text: { ValueSyntax.duration($0) })
    }

    mutating func byteSize(_ key: String) throws(DocSyncConfigurationError) -> Int64? {
        try quantity(
            key, kind: "a byte size", unit: "bytes", maximum: "1 PiB", examples: #"0, "512K", "5M""#,
            integer: { ValueSyntax.byteSize(bytes: $0) }, text: { ValueSyntax.byteSize($0) })
    }

    /// A quantity given as a TOML integer (a count of `unit`) or as text (`"10m"`, `"5M"`): never negative, at most
    /// `maximum` (`integer` and `text` return nil above it); an error names the key and shows `examples`.
    private mutating func quantity<Value>(
        _ key: String, kind: String, unit: String, maximum: String, examples: String, integer: (Int64) -> Value?,
        text parse: (String) -> Value?
    ) throws(DocSyncConfigurationError) -> Value? {
        if let number = table[key]?.int {
            used.insert(key)
            guard number >= 0 else { throw error(key, "must not be negative") }
            guard let value = integer(Int64(number)) else {
                throw error(key, "\(number) \(unit) is more than the maximum of \(maximum)")
            }
            return value
        }
        guard let text = try string(key) else { return nil }
        guard let value = parse(text) else {
            throw error(key, "\"\(text)\" is not \(kind) of at most \(maximum) (e.g. \(examples))")
        }
        return value
    }

    mutating func path(_ key: String) throws(DocSyncConfigurationError) -> String? {
        guard let text = try string(key) else { return nil }
        return try resolvePath(text, key: key)
    }

    /// An optional path that must name a readable file (empty: unset).
    mutating func readableFile(_ key: String) throws(DocSyncConfigurationError) -> String? {
        guard let text = try string(key), !text.isEmpty else { return nil }
        let path = try resolvePath(text, key: key)
        let opened: (fd: Int32, size: Int64)?  // a regular file: a FIFO there would hang every request
        do throws(SystemError) { opened = try RegularFile.open(path, followSymlink: true) } catch {
            throw self.error(key, "cannot read \(path): \(error)")
        }
        guard let opened else { throw error(key, "cannot read \(path) (it does not exist)") }
        close(opened.fd)
        return path
    }

    func resolvePath(_ text: String, key: String) throws(DocSyncConfigurationError) -> String {
        try loader.expand(text, file: file, key: prefix + key, directory: directory)
    }

    mutating func table(_ key: String) throws(DocSyncConfigurationError) -> TableReader? {
        guard let inner = try typed(key, "a table", { $0.table }) else { return nil }
        return TableReader(file: file, prefix: "\(prefix)\(key).", table: inner, loader: loader, directory: directory)
    }

    mutating func tables(_ key: String) throws(DocSyncConfigurationError) -> [TableReader] {
        guard let array = try typed(key, "an array of tables ([[\(key)]])", { $0.array }) else { return [] }
        var result: [TableReader] = []
        for (index, element) in array.enumerated() {
            guard let inner = element.table else {
                throw error("\(key)[\(index + 1)]", "expected a table, found \(element.type)")
            }
            result.append(
                TableReader(
                    file: file, prefix: "\(prefix)\(key)[\(index + 1)].", table: inner, loader: loader,
                    directory: directory))
        }
        return result
    }

    func finish() throws(DocSyncConfigurationError) {
        if let unknown = table.keys.sorted().first(where: { !used.contains($0) }) {
            throw DocSyncConfigurationError.unknownKey(file: file, key: prefix + unknown)
        }
    }
}

extension DocSyncConfigurationLoader {
    /// `[install] layout` and its per-docset exceptions `layouts = { NAME = "tarix" }`.
    fileprivate static func readLayouts(_ install: inout TableReader, into config: inout DocSyncConfiguration.Install)
        throws(DocSyncConfigurationError)
    {
        func parse(_ text: String, _ reader: TableReader, _ key: String) throws(DocSyncConfigurationError)
            -> InstalledDocset.Layout
        {
            guard let layout = InstalledDocset.Layout(rawValue: text) else {
                throw reader.error(key, "\"\(text.escapingControlCharacters)\" is not \"extracted\" or \"tarix\"")
            }
            return layout
        }
        if let text = try install.string("layout") { config.layout = try parse(text, install, "layout") }
        guard var layouts = try install.table("layouts") else { return }
        for name in layouts.table.keys.sorted() {
            guard let text = try layouts.string(name) else { continue }
            config.layouts[name] = try parse(text, layouts, name)
        }
        try layouts.finish()
    }
}
