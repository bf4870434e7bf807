import ArgumentParser
import DocSync
import DocSyncSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `docsync lease NAME`: holds a lease on a docset's current version for a backend in another language (or a
/// script), until standard input closes or the process ends.
struct LeaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lease",
        abstract: "Keep a docset's current version from being pruned while standard input stays open.",
        discussion: """
            Prints one JSON line {"name", "path", "documents"}: the leased version folder and its documents folder, \
            which no sync, remove or prune deletes until this process ends (standard input closed, a signal, even \
            SIGKILL: the lease is a lock the kernel drops). Exit status 64 when there is no such docset.
            """ + "\n\n" + manual)

    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var rootOptions: RootOptions

    @Argument(help: "The docset's folder name, without .docset, or NAME@VERSION for one version kept side by side.")
    var name: String

    func run() async throws {
        let config = try configOptions.load(rootOptions)
        let lease = try await SyncEngine(configuration: config).lease(name)
        printLine(SchemaJSON.line(Held(name: lease.name, path: lease.path, documents: lease.documentsPath)))
        // Held until standard input reaches its end (read on a thread of its own, off the cooperative pool).
        await WorkerThread.run(name: "docsync-lease") {
            var byte: UInt8 = 0
            while true {
                let n = read(STDIN_FILENO, &byte, 1)
                if n == 0 || (n < 0 && errno != EINTR) { return }
            }
        }
        lease.release()
    }

    private struct Held: Encodable {
        var name: String
        var path: String
        var documents: String
    }
}
