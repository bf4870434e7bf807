internal import DocSyncDownload
internal import DocSyncSupport
import Foundation
import Synchronization

/// Per-host mirror health for one sync, loaded from and saved to `<state>/mirrors.json`
/// (`{"schema": 1, "hosts": {HOST: HostHealth}}`). Shared by the sync's concurrent downloads.
final class AlternateBook: Sendable {
    /// What was learned (`hosts`), and whether anything was since the file was read (`changed`).
    private let learned: Mutex<(hosts: [String: HostHealth], changed: Bool)>
    let path: String
    private let stateDirectory: String
    static let fileName = "mirrors.json"

    struct File: Codable {
        var schema = 1
        var hosts: [String: HostHealth]
    }

    init(stateDirectory: String) {
        path = "\(stateDirectory)/\(Self.fileName)"
        self.stateDirectory = stateDirectory
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        // Read and written through the state folder's descriptor (a planted link is never followed).
        let bytes = (try? SafeDirectory.open(stateDirectory).readFile("mirrors.json", limit: 16 << 20)).flatMap { $0 }
        let file = bytes.flatMap { try? decoder.decode(File.self, from: Data($0)) }
        learned = Mutex((hosts: file?.schema == 1 ? file!.hosts : [:], changed: false))
    }

    func order(_ urls: [String]) -> [String] {
        learned.withLock { AlternateRanking.order(urls, hosts: $0.hosts) }
    }

    /// `AlternateRanking.orderKeepingSequence` with what was learned so far.
    func orderKeepingSequence(_ urls: [String]) -> [String] {
        learned.withLock { AlternateRanking.orderKeepingSequence(urls, hosts: $0.hosts) }
    }

    /// What was learned about `host` (`host[:port]`), nil when never measured.
    func health(of host: String) -> HostHealth? {
        learned.withLock { $0.hosts[host] }
    }

    func record(tried: [String], winner: String?, bytesPerSecond: Double?) {
        learned.withLock {
            AlternateRanking.record(tried: tried, winner: winner, bytesPerSecond: bytesPerSecond, into: &$0.hosts)
            $0.changed = true
        }
    }

    /// Writes the file when something was learned (atomically; a failure to save only loses this run's lessons).
    /// Not `durable`: the caller syncs the state folder's file system later (`SyncEngine.finish`).
    func save(durable: Bool = true) {
        learned.withLock {
            guard $0.changed else { return }
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            if let data = try? encoder.encode(File(hosts: $0.hosts)),
                let state = try? SafeDirectory.open(stateDirectory, create: true)
            {
                try? state.writeFileAtomically("mirrors.json", Array(data), durable: durable)
            }
            $0.changed = false
        }
    }
}

extension AlternateBook {
    /// A finished install: mirrors before the one that served it failed; its throughput is the archive's size over
    /// the time since the download started.
    func recordSuccess(
        of candidate: DocsetCandidate, from url: String?, archive: String, since: ContinuousClock.Instant
    ) {
        // The installed record's URL carries no credentials: match the mirror it came from without them too.
        guard let url = candidate.archives.first(where: { $0.redactingCredentials == url?.redactingCredentials })
        else { return }
        let seconds = (ContinuousClock.now - since) / .seconds(1)
        let size = (try? FileManager.default.attributesOfItem(atPath: archive)[.size] as? NSNumber)?.doubleValue
        let rate = size.map { $0 / max(seconds, 0.001) }
        record(tried: candidate.archives, winner: url, bytesPerSecond: rate)
    }

    /// A failed download: every mirror failed when the servers were at fault (not for a checksum, disk or install
    /// failure, which says nothing about the hosts).
    func recordFailure(of candidate: DocsetCandidate, _ error: any Error) {
        guard let error = error as? DownloadError else { return }
        switch error.kind {
        case .http, .transport, .badResponse, .tooManyRestarts:
            record(tried: candidate.archives, winner: nil, bytesPerSecond: nil)
        default: return
        }
    }
}
