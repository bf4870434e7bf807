#if canImport(Glibc)
    import Glibc
#endif

/// Writes a line to standard output at once (no stdio buffering), so a consumer of `--json` events on a pipe sees
/// each event as it happens.
func printLine(_ text: String) {
    let line = text.hasSuffix("\n") ? text : text + "\n"
    line.withCString { pointer in
        var remaining = strlen(pointer)
        var cursor = pointer
        while remaining > 0 {
            let written = write(STDOUT_FILENO, cursor, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            remaining -= written
            cursor += written
        }
    }
}
