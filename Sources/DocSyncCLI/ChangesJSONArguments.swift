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
            // A `switch` rather than key paths: a key path's first use instantiates it (#35: ~1.5 % of start-up).
            let set: Bool
            switch name {
            case "--since": set = Self.set(&parsed.since, from: &rest)
            case "--root": set = Self.set(&parsed.root, from: &rest)
            case "--state": set = Self.set(&parsed.state, from: &rest)
            case "--config": set = Self.set(&parsed.config, from: &rest)
            default: return nil
            }
            guard set else { return nil }
        }
        return json ? parsed : nil
    }

    /// Takes an option's value from `rest` into `field`; false when the option was given before or the value is
    /// missing, empty or starts with "-".
    private static func set<Rest: Collection<String>>(_ field: inout String?, from rest: inout Rest) -> Bool
    where Rest.SubSequence == Rest {
        guard field == nil, let value = rest.popFirst(), let first = value.utf8.first, first != UInt8(ascii: "-")
        else { return false }
        field = value
        return true
    }

    /// Runs the command ArgumentParser would have made of the same command line (`ChangesCommand.runOnMainThread`),
    /// without making it: its options' property wrappers alone cost a scan of every protocol conformance.
    func run() throws {
        try ChangesCommand.writeJSON(
            configuration: try ConfigOptions.load(file: config, root: root, state: state), since: since)
    }
}
