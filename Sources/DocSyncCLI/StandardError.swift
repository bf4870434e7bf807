#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to standard error (diagnostics never go to standard output, which may carry JSON).
func printError(_ message: String) {
    var line = message
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
