import DocSyncDownload
import DocSyncHTTP
import DocSyncSupport
import Foundation
import TestSupport

/// A temp directory with origin bytes, an output path and a staging directory, and a downloader configured for
/// fast tests (1 MiB chunks, 64 KiB overlap, millisecond backoff, 1 s stall detection).
struct DownloadFixture {
    let directory: TemporaryDirectory
    let content: [UInt8]

    init(size: Int = 4 << 20, seed: UInt64 = 1) throws {
        directory = try TemporaryDirectory("docsync-download")
        content = Self.randomBytes(size, seed: seed)
    }

    var destination: String { directory.appending("out.bin") }
    var stagingDirectory: String { directory.appending("staging") }
    var sha256: String { SHA256.hash(content).description }

    func configuration(maxAttempts: Int = 8, maxRestarts: Int = 5) -> DownloadConfiguration {
        var http = HTTPOptions()
        http.connectTimeout = 5
        http.lowSpeedLimit = 1024
        http.lowSpeedTime = 1
        http.totalTimeout = 60
        var retry = RetryPolicy()
        retry.maxAttempts = maxAttempts
        retry.maxRestarts = maxRestarts
        retry.baseDelay = 0.005
        retry.maxDelay = 0.02
        return DownloadConfiguration(
            stagingDirectory: stagingDirectory, http: http, retry: retry, chunkSize: 1 << 20, commitInterval: 0.05,
            overlap: 64 << 10)
    }

    func request(_ alternates: [String], key: String = "docset/1.0", sha256: String? = nil) -> DownloadRequest {
        DownloadRequest(key: key, alternates: alternates, destination: destination, expectedSHA256: sha256)
    }

    func download(
        _ alternates: [String], key: String = "docset/1.0", sha256: String? = nil, maxAttempts: Int = 8,
        maxRestarts: Int = 5
    ) async throws(DownloadError) -> DownloadResult {
        let downloader = Downloader(configuration: configuration(maxAttempts: maxAttempts, maxRestarts: maxRestarts))
        return try await downloader.download(request(alternates, key: key, sha256: sha256))
    }

    /// SHA-256 of the output file, nil when it does not exist.
    var outputSHA256: String? {
        guard let data = FileManager.default.contents(atPath: destination) else { return nil }
        return SHA256.hash(Array(data)).description
    }

    var outputExists: Bool { FileManager.default.fileExists(atPath: destination) }

    /// Paths of the staging files for `key`.
    func stagingPath(_ key: String = "docset/1.0", _ suffix: String) -> String {
        "\(stagingDirectory)/\(StagingName.forKey(key)).\(suffix)"
    }

    func remove() { directory.remove() }

    /// Deterministic pseudo-random bytes (xorshift64*), fast enough for tens of MiB in a debug build.
    static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for i in 0..<words.count {
                state ^= state >> 12
                state ^= state << 25
                state ^= state >> 27
                words[i] = state &* 0x2545_F491_4F6C_DD1D
            }
        }
        return bytes
    }
}

extension FaultRequest {
    var hasRange: Bool { header("Range") != nil }
}
