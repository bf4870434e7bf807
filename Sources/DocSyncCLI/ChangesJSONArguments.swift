/// `docsync changes --json` with at most `--since`, `--root`, `--state` and `--config` (each once, as `--name VALUE`),
/// read without ArgumentParser: an indexing backend runs it once per poll, and its start-up is most of what it costs
/// (#35: last 10 records ≤ 5 ms, start-up included). ArgumentParser's parse of it (the command tree, every option's
/// property wrapper, whose first `Set` and `Dictionary` types each cost a scan of all ~7,600 protocol conformance
/// records) was ~70 page faults and about as much CPU as the command's own work (Benchmarks/README.md, changes-bench).
///
/// A subset of the one grammar, not a second one: anything else — another option or flag, `--help`, a repeated
/// option, `--name=VALUE`, a value that is empty or starts with "-", a positional argument, a usage error — is nil,
/// and ArgumentParser parses the command line as before (its help, errors and exit statuses unchanged). Where this
/// accepts a command line, ArgumentParser reads the same values from it (ChangesJSONArgumentsTests compares them).
struct ChangesJSONArguments: Sendable, Equatable {
    var since: String?
    var root: String?
    var state: String?
    var config: String?

    /// The options of `arguments` (the command line without the executable's name), or nil when it is not
    /// `changes --json` with only the options this reads.
    static func parse(_ arguments: some Collection<String>) -> Self? {
        var rest = arguments[...]
        guard rest.popFirst() == "changes" else { return nil }
        var parsed = Self()
        var json = false
        while let name = rest.popFirst() {
            if name == "--json" {
                if json { return nil }
                json = true
                continue
            }
            let field: WritableKeyPath<Self, String?>
            switch name {
            case "--since": field = \.since
            case "--root": field = \.root
            case "--state": field = \.state
            case "--config": field = \.config
            default: return nil
            }
            guard parsed[keyPath: field] == nil, let value = rest.popFirst(), let first = value.utf8.first,
                first != UInt8(ascii: "-")
            else { return nil }
            parsed[keyPath: field] = value
        }
        return json ? parsed : nil
    }

    /// Runs the command ArgumentParser would have made of the same command line (`ChangesCommand.runOnMainThread`),
    /// without making it: its options' property wrappers alone cost a scan of every protocol conformance.
    func run() throws {
        try ChangesCommand.writeJSON(
            configuration: try ConfigOptions.load(file: config, root: root, state: state), since: since)
    }
}
