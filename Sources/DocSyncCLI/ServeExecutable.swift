import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync-serve`: the executable that runs the HTTP front (``ServeHost``), installed beside `docsync`.
/// `docsync serve` and `docsync daemon` with `[serve]` replace themselves with it (same process id, arguments and
/// environment), so the command line, signals and systemd units are unchanged.
enum ServeExecutable {
    static let name = "docsync-serve"

    /// `docsync-serve` beside the running executable (`/proc/self/exe`, symlinks resolved).
    static func path() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return name }
        let me = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = me.utf8.lastIndex(of: UInt8(ascii: "/")) else { return name }
        return String(me[...slash]) + name
    }

    /// Replaces this process with `docsync-serve` and this process's arguments; returns only by throwing, after
    /// printing why (`docsync-serve` missing or not executable: exit 69).
    static func replaceProcess(for command: String) throws -> Never {
        let path = path()
        let arguments = [path] + CommandLine.arguments.dropFirst()
        // A signal this thread blocks would stay blocked across exec: the server's graceful shutdown needs them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        var cArguments = arguments.map { strdup($0) }
        cArguments.append(nil)
        execv(path, cArguments)
        let failure = errno
        for argument in cArguments { free(argument) }
        printError(
            "docsync \(command): cannot run \(path): \(String(cString: strerror(failure))) "
                + "(the HTTP front is the separate executable \(name), installed beside docsync by scripts/install)")
        throw ExitStatus.unavailable
    }
}
