internal import DocSyncSupport
package import DocSyncHTTP
import Foundation

/// Gets a feed's bytes the cheapest way HTTP allows: not at all while the stored copy is fresh (`max-age`,
/// `Expires`), a conditional GET otherwise (a 304 costs no body bytes), a plain GET when nothing is stored.
/// Local paths are read directly.
package struct FeedRefresher: Sendable {
    package typealias Source = FeedRefresh

    package struct Result: Sendable {
        package var bytes: [UInt8]
        package var source: Source
    }

    package struct Failure: Error, Sendable, CustomStringConvertible {
        package let feed: String
        package let reason: String
        /// The final HTTP status when the server answered with a non-2xx one.
        package var httpStatus: Int? = nil
        /// Network trouble that a later sync may not meet (see ``SyncFailure/isTransient``).
        package var isTransient = false
        package var description: String { "\(feed): \(reason)" }
    }

    package let store: FeedCacheStore
    package let options: HTTPOptions
    package let maxBytes: Int
    /// How requests reach the network (the engine's transport).
    package let client: HTTPClient
    /// Connections kept between requests to the same origin (many feeds on one host share a few).
    let connections = HTTPConnectionPool()

    package init(
        store: FeedCacheStore, options: HTTPOptions, maxBytes: Int = 32 << 20, transport: HTTPTransport = .curl
    ) {
        self.store = store
        self.options = options
        self.maxBytes = maxBytes
        self.client = HTTPClient(transport: transport)
    }

    /// - Parameter refresh: ignore freshness and always ask the server (still conditionally).
    package func fetch(_ location: String, refresh: Bool, now: @Sendable () -> Date = Date.init) async throws(Failure)
        -> Result
    {
        guard location.hasPrefix("http://") || location.hasPrefix("https://") else {
            let read: [UInt8]?
            do throws(SystemError) { read = try RegularFile.read(path: location, limit: maxBytes) } catch {
                guard error.code != EFBIG else {
                    throw Failure(feed: location, reason: "larger than the feed size limit of \(maxBytes) bytes")
                }
                throw Failure(feed: location, reason: "cannot read the file: \(error)")
            }
            guard let data = read else { throw Failure(feed: location, reason: MissingFeedFile.reason(location)) }
            return Result(bytes: [UInt8](data), source: .local)
        }
        let stored = store.load(url: location)
        if let stored, !refresh, Freshness.isFresh(stored.entry, now: now()) {
            return Result(bytes: stored.body, source: .fresh)
        }
        let connection = connections.checkout(for: location)
        let request = HTTPRequest(
            url: location, headers: stored?.entry.conditionalHeaders ?? [], options: options, connection: connection)
        let response: HTTPResponse
        do {
            defer { connections.checkin(connection, for: location) }
            response = try await client.get(request, maxBodyBytes: maxBytes)
        } catch {
            // The client's error names the URL too: keep it once (the Failure's feed).
            var reason = Self.describe(error, options: options)
            if reason.hasPrefix("\(location): ") { reason.removeFirst(location.count + 2) }
            var failure = Failure(feed: location, reason: reason)
            if case .transport(let transport) = error { failure.isTransient = transport.isTransient }
            throw failure
        }
        let fields = Dictionary(
            response.head.fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        switch response.head.status {
        case 304:
            guard let stored else { throw Failure(feed: location, reason: "HTTP 304 to an unconditional request") }
            let freshened = stored.entry.freshened(byNotModified: fields, at: now())
            if freshened.needsSaving(replacing: stored.entry) { try? store.save(freshened, body: nil) }
            return Result(bytes: stored.body, source: .notModified)
        case 200:
            let entry = FeedCacheEntry(
                url: location, etag: fields["etag"], lastModified: fields["last-modified"],
                cacheControl: fields["cache-control"], expires: fields["expires"], date: fields["date"],
                age: fields["age"], storedAt: now())
            try? store.save(entry, body: response.body)
            return Result(bytes: response.body, source: .downloaded)
        default:
            throw Failure(
                feed: location, reason: "HTTP \(response.head.status) \(reason(response.head.statusLine))",
                httpStatus: response.head.status, isTransient: response.head.status >= 500)
        }
    }

    /// The transport error with the configuration key that bounds it, so a slow or endless feed names its cause.
    static func describe(_ error: HTTPClientError, options: HTTPOptions) -> String {
        guard case .transport(let transport) = error else { return "\(error)" }
        switch transport.kind {
        case .stall:
            return "\(transport) — slower than [network] min_speed (\(options.lowSpeedLimit) bytes/s) for "
                + "[network] stall_timeout (\(options.lowSpeedTime) s)"
        case .timeout where options.totalTimeout > 0 && transport.message.hasPrefix("Operation timed out"):
            return "\(transport) — a feed fetch may take at most [network] feed_timeout (\(options.totalTimeout) s)"
        default:
            return "\(transport)"
        }
    }

    private func reason(_ statusLine: String) -> String {
        statusLine.split(separator: " ", maxSplits: 2).dropFirst(2).first.map(String.init) ?? ""
    }
}
