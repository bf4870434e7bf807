import DocSync
import UnixSignals

extension SyncCommand {
    /// Runs `body`; SIGINT / SIGTERM cancel it (downloads checkpoint, an install in flight completes or never
    /// shows), then one line says what was kept and the command exits 130.
    static func interruptible(
        staging: String, _ body: @escaping @Sendable () async throws -> SyncSummary
    ) async throws -> SyncSummary {
        let signals = await UnixSignalsSequence(trapping: .sigint, .sigterm)
        let outcome = try await withThrowingTaskGroup(of: SyncSummary?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                var iterator = signals.makeAsyncIterator()
                _ = await iterator.next()
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            if first == nil { _ = try? await group.next() }  // the sync winds down before the line is printed
            return first
        }
        guard let outcome else {
            printError(interruptionLine(PartialDownload.list(in: staging)))
            throw ExitStatus.interrupted
        }
        return outcome
    }

    /// `docsync: interrupted; kept 2 partial downloads (14.2 MiB); the next sync resumes them`.
    static func interruptionLine(_ partials: [PartialDownload]) -> String {
        guard !partials.isEmpty else { return "docsync: interrupted; nothing half-done was left; installed docsets are unchanged" }
        let bytes = ProgressRenderer.bytes(partials.reduce(0) { $0 + $1.bytes })
        let count = partials.count == 1 ? "1 partial download" : "\(partials.count) partial downloads"
        return "docsync: interrupted; kept \(count) (\(bytes)); the next sync resumes from there"
    }
}
