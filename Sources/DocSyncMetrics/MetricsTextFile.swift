import DocSync
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

    /// Replaces the sync run's metrics in `path` with `metrics` (temp file + rename in the same folder), keeping
    /// the lines `docsync serve` wrote there (`docsync_serve_*`).
    package static func write(_ metrics: RunMetrics, to path: String) throws(SystemError) {
        try update(path, serve: false, with: render(metrics))
    }

    /// Replaces the `docsync_serve_*` lines of `path` with `stats`, keeping the sync run's metrics.
    package static func write(_ stats: ServeStats, to path: String) throws(SystemError) {
        try update(path, serve: true, with: render(stats))
    }

    /// The text-format exposition of the server's totals (`docsync_serve_*`: counters, a duration histogram and
    /// the page cache's size).
    package static func render(_ stats: ServeStats) -> [UInt8] {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP docsync_serve_\(name) \(help)\n# TYPE docsync_serve_\(name) \(type)\n"
        }
        family("requests_total", "counter", "Requests answered by docsync serve, by route and status class.")
        for route in ServeStats.routes {
            for statusClass in ServeStats.statusClasses {
                let count = stats.requests[route]?[statusClass] ?? 0
                out += "docsync_serve_requests_total{route=\"\(route)\",status=\"\(statusClass)\"} \(count)\n"
            }
        }
        family(
            "request_duration_seconds", "histogram",
            "How long docsync serve took to answer requests (until the answer's head, in seconds).")
        for (bound, count) in zip(ServeStats.durationBounds, stats.durationBuckets) {
            out += "docsync_serve_request_duration_seconds_bucket{le=\"\(bound)\"} \(count)\n"
        }
        out += "docsync_serve_request_duration_seconds_bucket{le=\"+Inf\"} \(stats.durationCount)\n"
        out += "docsync_serve_request_duration_seconds_sum \(stats.durationSum)\n"
        out += "docsync_serve_request_duration_seconds_count \(stats.durationCount)\n"
        family("rejected_total", "counter", "Requests refused with 503 because a queue was full, by queue.")
        for queue in stats.rejected.keys.sorted() {
            out += "docsync_serve_rejected_total{queue=\"\(queue)\"} \(stats.rejected[queue] ?? 0)\n"
        }
        family("page_cache_hits_total", "counter", "Tarix pages answered from the cache of inflated pages.")
        out += "docsync_serve_page_cache_hits_total \(stats.pageCacheHits)\n"
        family("page_cache_misses_total", "counter", "Tarix pages inflated because the cache did not hold them.")
        out += "docsync_serve_page_cache_misses_total \(stats.pageCacheMisses)\n"
        family("page_cache_bytes", "gauge", "Bytes held by the cache of inflated tarix pages.")
        out += "docsync_serve_page_cache_bytes \(stats.pageCacheBytes)\n"
        return Array(out.utf8)
    }

    /// `existing` with the metric families of one writer (`serve`: `docsync_serve_*`, else the others) replaced by
    /// `block`: each writer keeps the other's lines (the sync run's metrics first). Pure: the tests' subject.
    package static func merge(_ existing: String, serve: Bool, with block: String) -> String {
        var kept = ""
        for line in existing.split(separator: "\n") {
            let name: Substring
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") {
                name = line.dropFirst(7).prefix { $0 != " " }
            } else if line.hasPrefix("#") {
                continue
            } else {
                name = line.prefix { $0 != "{" && $0 != " " }
            }
            if name.hasPrefix("docsync_serve_") != serve { kept += line + "\n" }
        }
        return serve ? kept + block : block + kept
    }

    /// Rewrites `path` with `block` merged in (``merge(_:serve:with:)``), under an exclusive `flock` of its folder,
    /// so that a sync and a server writing at the same moment (two processes, or the daemon's two services) do not
    /// lose each other's lines.
    private static func update(_ path: String, serve: Bool, with block: [UInt8]) throws(SystemError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw SystemError("open", path: folder) }
        defer { close(directory) }
        while flock(directory, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(directory, LOCK_UN) }
        let bytes = Array(
            merge(existing(directory, name), serve: serve, with: String(decoding: block, as: UTF8.self)).utf8)
        let temporary = ".\(name).\(getpid()).tmp"
        let fd = openat(directory, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError("open", path: "\(folder)/\(temporary)") }
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

    /// The file's current text (at most 1 MiB; empty when missing or unreadable: the writer starts afresh).
    private static func existing(_ directory: Int32, _ name: String) -> String {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            filled += n
        }
        return String(decoding: bytes[..<filled], as: UTF8.self)
    }
}
