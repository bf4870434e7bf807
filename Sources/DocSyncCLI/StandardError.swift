
#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to standard error (diagnostics never go to standard output, which may carry JSON). Messages quote
/// untrusted text (URLs, server reasons, names): credentials are redacted and control characters other than the
/// message's own line breaks escaped.
func printError(_ message: String) {
    var line = message.redactingCredentials.split(separator: "\n", omittingEmptySubsequences: false)
        .map { String($0).escapingControlCharacters }.joined(separator: "\n")
    if !line.hasSuffix("\n") { line += "\n" }
    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
}
