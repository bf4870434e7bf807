#if canImport(Glibc)
    import Glibc
#endif

/// Runs a command in a process group of its own (`posix_spawn` with `POSIX_SPAWN_SETPGROUP`), standard input and
/// output on `/dev/null`, standard error kept (its end). A deadline or a cancellation stops the whole group —
/// the command and everything it started — with SIGTERM, then SIGKILL after `killGrace`. Blocking: call it from
/// `WorkerThread.run`.
package struct ChildProcess: Sendable {
    package var path: String
    package var arguments: [String]
    package var environment: [String: String]
    /// How long SIGTERM has to work before SIGKILL.
    package var killGrace: Duration = .seconds(5)

    package init(path: String, arguments: [String], environment: [String: String]) {
        self.path = path
        self.arguments = arguments
        self.environment = environment
    }

    /// How the command ended.
    package enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
        /// Still running at the deadline: its process group was stopped.
        case timedOut
        /// Cancelled by the caller: its process group was stopped.
        case cancelled
        /// `posix_spawn` failed with this errno.
        case notStarted(Int32)
    }

    package struct Result: Sendable, Equatable {
        package var ending: Ending
        /// The last bytes (at most 8 KiB) the command wrote to standard error.
        package var standardErrorTail: [UInt8]
    }

    /// Runs to the end, the `timeout`, or until `isCancelled` returns true (polled every 100 ms).
    package func run(timeout: Duration, isCancelled: @Sendable () -> Bool = { false }) -> Result {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { return Result(ending: .notStarted(errno), standardErrorTail: []) }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }  // (pipe2 is not in Glibc's Swift module)
        let spawned = spawn(standardError: pipeEnds[1])
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard case .success(let pid) = spawned else {
            if case .failure(let code) = spawned { return Result(ending: .notStarted(code.code), standardErrorTail: []) }
            return Result(ending: .notStarted(EINVAL), standardErrorTail: [])
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        var tail = TailBuffer(capacity: 8 << 10)
        let deadline = ContinuousClock.now + timeout
        var stopping: (ending: Ending, killAt: ContinuousClock.Instant)?
        while true {
            tail.drain(pipeEnds[0], waitMilliseconds: 100)
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno == ECHILD) {
                tail.drain(pipeEnds[0], waitMilliseconds: 0)
                if let stopping {
                    stopGroup(pid, killAt: stopping.killAt)
                    return Result(ending: stopping.ending, standardErrorTail: tail.bytes)
                }
                let ending: Ending = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
                return Result(ending: ending, standardErrorTail: tail.bytes)
            }
            let now = ContinuousClock.now
            if let current = stopping {
                if now >= current.killAt {
                    kill(-pid, SIGKILL)
                    stopping?.killAt = now + .seconds(3600)
                }
            } else if now >= deadline || isCancelled() {
                stopping = (now >= deadline ? .timedOut : .cancelled, now + killGrace)
                kill(-pid, SIGTERM)
            }
        }
    }

    /// The leader is gone; the rest of its group gets until `killAt` to act on SIGTERM, then SIGKILL.
    private func stopGroup(_ group: pid_t, killAt: ContinuousClock.Instant) {
        while kill(-group, 0) == 0 && ContinuousClock.now < killAt { _ = poll(nil, 0, 50) }
        kill(-group, SIGKILL)
    }

    private struct SpawnError: Error { let code: Int32 }

    private func spawn(standardError: Int32) -> Swift.Result<pid_t, SpawnError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own group (so a deadline stops all of it), default signal dispositions (a daemon that ignores
        // SIGTERM or SIGPIPE must not pass that on) and an empty signal mask.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([path] + arguments).map { strdup($0) }
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { args in
            (envp + [nil]).withUnsafeBufferPointer { env in
                posix_spawn(&pid, path, &actions, &attributes, args.baseAddress!, env.baseAddress!)
            }
        }
        return code == 0 ? .success(pid) : .failure(SpawnError(code: code))
    }
}

/// The last `capacity` bytes read from a descriptor.
private struct TailBuffer {
    let capacity: Int
    var bytes: [UInt8] = []
    /// False after end of file (the command and its children closed standard error).
    var open = true

    init(capacity: Int) { self.capacity = capacity }

    /// Reads what is available (waiting up to `waitMilliseconds` for the first byte), keeping the end.
    mutating func drain(_ fd: Int32, waitMilliseconds: Int32) {
        guard open else {
            _ = poll(nil, 0, waitMilliseconds)
            return
        }
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, waitMilliseconds) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n == 0 { open = false }
            guard n > 0 else { return }
            bytes += chunk[..<n]
            if bytes.count > capacity { bytes.removeFirst(bytes.count - capacity) }
        }
    }
}
