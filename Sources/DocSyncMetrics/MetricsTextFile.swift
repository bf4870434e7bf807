import DocSyncSupport
import Prometheus

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `RunMetrics` in the Prometheus text format (swift-prometheus renders it) to a file, atomically: a
/// temporary file beside it (`O_EXCL | O_NOFOLLOW`, relative to the folder's descriptor), `fsync`, `renameat`, so
/// a collector never reads half a file.
public enum MetricsTextFile {
    /// The text-format exposition of `metrics`.
    public static func render(_ metrics: RunMetrics) -> [UInt8] {
        let registry = PrometheusCollectorRegistry()
        func gauge(_ name: String, _ help: String, _ value: Double, labels: [(String, String)] = []) {
            let descriptor = MetricNameDescriptor(namespace: "docsync", metricName: name, unitName: "", helpText: help)
            registry.makeGauge(descriptor: descriptor, labels: labels).set(value)
        }
        if let lastSuccess = metrics.lastSuccess {
            gauge("last_success_timestamp_seconds", "When the last successful sync ended (Unix time).", lastSuccess)
        }
        gauge("last_run_timestamp_seconds", "When the last sync ended (Unix time).", metrics.finished)
        gauge("last_run_duration_seconds", "How long the last sync took.", metrics.durationSeconds)
        for result in RunMetrics.results {
            gauge(
                "last_run_result", "How the last sync ended: 1 for its result, 0 for the others.",
                result == metrics.result ? 1 : 0, labels: [("result", result)])
        }
        let docsets = [
            ("installed", metrics.installed), ("updated", metrics.updated), ("unchanged", metrics.unchanged),
            ("removed", metrics.removed), ("failed", metrics.failed),
        ]
        for (outcome, count) in docsets {
            gauge(
                "last_run_docsets", "Docsets by outcome in the last sync.", Double(count),
                labels: [("outcome", outcome)])
        }
        gauge("last_run_feeds_failed", "Feeds that failed in the last sync.", Double(metrics.feedsFailed))
        gauge(
            "last_run_downloaded_bytes", "Archive bytes received from servers in the last sync.",
            Double(metrics.bytesDownloaded))
        gauge(
            "last_run_resumed_bytes", "Bytes kept from interrupted downloads that the last sync did not fetch again.",
            Double(metrics.bytesResumed))
        return registry.emitToBuffer()
    }

    /// Replaces `path` with the rendered metrics (temp file + rename in the same folder).
    public static func write(_ metrics: RunMetrics, to path: String) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw SystemError("open", path: folder) }
        defer { close(directory) }
        let temporary = ".\(name).\(getpid()).tmp"
        let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError("open", path: "\(folder)/\(temporary)") }
        let bytes = render(metrics)
        do { try LinuxFS.writeAll(fd, bytes, path: "\(folder)/\(temporary)") } catch {
            close(fd)
            unlinkat(directory, temporary, 0)
            throw error
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard synced, renameat(directory, temporary, directory, name) == 0 else {
            let error = SystemError(synced ? "rename" : "fsync", path: path)
            unlinkat(directory, temporary, 0)
            throw error
        }
    }
}
