import ArgumentParser

/// `--dry-run`, shared by the commands that edit the configuration file (`add`, `drop`): the edit is shown as a
/// unified diff and the file is left as it is (`ConfigFileEdit.apply`).
struct ConfigEditOptions: ParsableArguments {
    @Flag(help: "Show the edit as a diff and change nothing.")
    var dryRun = false
}
