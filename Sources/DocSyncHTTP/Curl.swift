import CCurl
import CCurlShim
import DocSyncSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The only user of libcurl. Runs one request on an easy handle, on a thread of its own (never on Swift's
/// cooperative pool), delivering header lines and body bytes to an `HTTPResponseReceiver`. libcurl is loaded by the
/// first transfer (CCurlShim), not at start-up: a missing or incompatible libcurl fails that transfer with
/// `libraryUnavailable`, naming the library and the missing function.
package enum Curl {

    /// The transfers' threads: one for every transfer running (a thread is started whenever none is idle, so no
    /// transfer ever waits for another), kept for the next transfer instead of a thread started and ended per
    /// request, which was a tenth of a no-op sync's CPU at 1,000 feeds. A thread idle for 30 s ends, so a daemon does
    /// not keep a 16-connection download's threads (their stacks and arenas) for the rest of its life.
    private static let threads = BlockingPool(
        name: "docsync-curl", threads: .max, queueLimit: .max, stackSize: 1 << 20, idleTimeout: 30)

    /// `CURL_CA_BUNDLE` as the curl tool reads it (libcurl itself ignores it).
    private static var environmentCABundle: String? {
        getenv("CURL_CA_BUNDLE").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Loads libcurl and runs curl_global_init, once (later calls return the first one's result).
    package static func load() throws(LibraryUnavailable) {
        // libcrypto first: downloads are hashed, and it is initialised as the executables ask (without its error
        // strings, `OpenSSLStartup`) before libcurl's OpenSSL initialises it.
        try SHA256.load(for: purpose)
        try LibraryUnavailable.check(DS_CURL_SONAME, for: purpose) { _, _, missing in ds_curl_load(missing) }
    }

    /// The same load of `soname` with libcurl's function list, closed again: a library that is missing or lacks a
    /// function is the error ``load()`` throws (tests).
    package static func probe(soname: String) throws(LibraryUnavailable) {
        try LibraryUnavailable.check(soname, for: purpose) { ds_curl_probe(soname, $0, $1, $2) }
    }

    private static let purpose = "downloads"

    /// Performs `request` and reports how the transport ended. Cancelling the task aborts the transfer promptly.
    package static func perform(_ request: HTTPRequest, receiver: any HTTPResponseReceiver) async -> HTTPTransferResult
    {
        let context = TransferContext(receiver: receiver, options: request.options)
        // The pool keeps a finished job's closure until it compacts its queue (64 jobs later): the request (its
        // connection slot: a libcurl handle, its buffers and open connection) and the receiver go to the job through
        // a box it empties, so nothing of the transfer outlives it there.
        let handOver = Mutex<(request: HTTPRequest, context: TransferContext)?>((request, context))
        return await withTaskCancellationHandler {
            do {
                return try await threads.perform {
                    guard let job = handOver.withLock({ $0.take() }) else { preconditionFailure("a job runs once") }
                    return performBlocking(job.request, context: job.context)
                }
            } catch {
                let failure = HTTPTransportError(
                    kind: .other, code: -1, message: "no thread for the transfer: \(error)", url: request.url)
                return HTTPTransferResult(ending: .failed(failure), status: 0, effectiveURL: request.url, bodyBytes: 0)
            }
        } onCancel: {
            context.cancelled.store(true, ordering: .relaxed)
        }
    }

    private static func performBlocking(_ request: HTTPRequest, context: TransferContext) -> HTTPTransferResult {
        do throws(LibraryUnavailable) { try load() } catch {
            let failure = HTTPTransportError(
                kind: .libraryUnavailable, code: -1, message: error.description, url: request.url)
            return HTTPTransferResult(ending: .failed(failure), status: 0, effectiveURL: request.url, bodyBytes: 0)
        }
        let reused = request.connection?.take(for: request.url)
        guard let handle = reused?.handle ?? ds_curl_easy_init() else {
            let error = HTTPTransportError(kind: .other, code: -1, message: "curl_easy_init failed", url: request.url)
            return HTTPTransferResult(ending: .failed(error), status: 0, effectiveURL: request.url, bodyBytes: 0)
        }
        if let reused { context.origin = reused.origin }  // no connect, no address check: the kept origin
        if let refused = context.refusal(of: request.url, redirected: false) {
            ds_curl_easy_cleanup(handle)
            let error = HTTPTransportError(kind: .redirectRefused, code: 0, message: refused, url: request.url)
            return HTTPTransferResult(ending: .failed(error), status: 0, effectiveURL: request.url, bodyBytes: 0)
        }
        var headerList: UnsafeMutablePointer<curl_slist>?
        for header in request.headers { headerList = ds_curl_slist_append(headerList, header) }
        defer { ds_curl_slist_free_all(headerList) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        let o = request.options
        let unmanaged = Unmanaged.passUnretained(context).toOpaque()
        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorPointer in
            ds_curl_setopt_string(handle, CURLOPT_URL, request.url)
            ds_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            ds_curl_setopt_long(handle, CURLOPT_FAILONERROR, 0)
            let protocols = o.httpsOnly ? "https" : "http,https"
            ds_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, protocols)
            ds_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, protocols)
            if !(o.allowPrivateRedirects && o.allowLinkLocal), o.proxy == nil {
                ds_curl_set_address_check(handle, addressCheck, unmanaged)
            }
            ds_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, o.followRedirects ? 1 : 0)
            ds_curl_setopt_long(handle, CURLOPT_MAXREDIRS, o.maxRedirects)
            ds_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
            ds_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
            ds_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, o.connectTimeout)
            ds_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, o.lowSpeedLimit)
            ds_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, o.lowSpeedTime)
            ds_curl_setopt_long(handle, CURLOPT_TIMEOUT, o.totalTimeout)
            ds_curl_setopt_long(handle, CURLOPT_HTTP_CONTENT_DECODING, 0)  // bytes on disk are the bytes sent
            ds_curl_setopt_long(handle, CURLOPT_BUFFERSIZE, min(512 << 10, max(1024, o.receiveBufferSize)))
            ds_curl_setopt_string(handle, CURLOPT_USERAGENT, o.userAgent)
            switch o.httpVersion {
            case .automatic: break
            case .http11: ds_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
            case .http2PriorKnowledge:
                ds_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
            }
            if let proxy = o.proxy { ds_curl_setopt_string(handle, CURLOPT_PROXY, proxy) }
            if let caFile = o.caFile ?? environmentCABundle {
                ds_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)
                ds_curl_setopt_string(handle, CURLOPT_PROXY_CAINFO, caFile)
            }
            ds_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)
            ds_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorPointer.baseAddress)
            ds_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback)
            ds_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, unmanaged)
            ds_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, writeCallback)
            ds_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, unmanaged)
            ds_curl_setopt_xferinfo_callback(handle, progressCallback)
            ds_curl_setopt_pointer(handle, CURLOPT_XFERINFODATA, unmanaged)
            ds_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            return ds_curl_easy_perform(handle)
        }

        var status = 0
        var effective = request.url
        var longValue = 0
        if ds_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &longValue) == CURLE_OK { status = longValue }
        var urlPointer: UnsafePointer<CChar>?
        if ds_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &urlPointer) == CURLE_OK, let urlPointer {
            effective = String(cString: urlPointer)
        }
        var connects = 0
        if ds_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &connects) != CURLE_OK { connects = 1 }
        let message = errorBuffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let ending = classify(code, message: message, url: effective, context: context)
        // Kept only when not redirected (a reused connection always goes to the URL's own host, see HTTPConnection)
        // and complete: after a failed, aborted or cancelled transfer the next request starts from a new handle.
        if let connection = request.connection, ending == .complete, !context.redirected, context.refusal == nil {
            connection.keep(handle, for: request.url, origin: context.origin)
        } else {
            ds_curl_easy_cleanup(handle)
        }
        var result = HTTPTransferResult(
            ending: ending, status: status, effectiveURL: effective, bodyBytes: context.bodyBytes)
        result.newConnections = connects
        return result
    }

    private static func classify(_ code: CURLcode, message: String, url: String, context: TransferContext)
        -> HTTPTransferResult.Ending
    {
        if code == CURLE_OK { return .complete }
        if context.receiverAborted { return .abortedByReceiver }
        if context.cancelled.load(ordering: .relaxed) { return .cancelled }
        if let refusal = context.refusal {
            return .failed(
                HTTPTransportError(kind: .redirectRefused, code: Int32(code.rawValue), message: refusal, url: url))
        }
        let text = message.isEmpty ? String(cString: ds_curl_easy_strerror(code)) : message
        let kind: HTTPTransportError.Kind =
            switch code {
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: .resolve
            case CURLE_COULDNT_CONNECT: .connect
            case CURLE_OPERATION_TIMEDOUT:
                text.lowercased().contains("less than") ? .stall : .timeout
            case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_HTTP2,
                CURLE_HTTP2_STREAM:
                .closedEarly
            case CURLE_TOO_MANY_REDIRECTS: .tooManyRedirects
            case CURLE_URL_MALFORMAT: .badURL
            case CURLE_UNSUPPORTED_PROTOCOL: .protocolNotAllowed
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE: .tlsCertificate
            case CURLE_SSL_CONNECT_ERROR: .tls
            default: .other
            }
        return .failed(HTTPTransportError(kind: kind, code: Int32(code.rawValue), message: text, url: url))
    }
}

/// State shared with libcurl's C callbacks through an unretained pointer.
///
/// `@unchecked Sendable`: touched only on the transfer thread, except `cancelled`, which is atomic.
private final class TransferContext: @unchecked Sendable {
    let receiver: any HTTPResponseReceiver
    let cancelled = Atomic<Bool>(false)
    var parser = HTTPHeadParser()
    var receiverAborted = false
    var bodyBytes: Int64 = 0
    var gate: ReceiveRateGate
    let options: HTTPOptions
    /// A redirect head was seen: later connections go to its target.
    var redirected = false
    /// The first address connected to before any redirect, with its scope.
    var origin: AddressOrigin?
    /// Why a connection or a redirect was refused (the transfer then fails with `redirectRefused`).
    var refusal: String?

    init(receiver: any HTTPResponseReceiver, options: HTTPOptions) {
        self.receiver = receiver
        self.options = options
        gate = ReceiveRateGate(limit: options.maxReceiveRate)
    }

    /// Waits as long as the rate gate asks, in short steps so that cancelling stays prompt.
    func pace(_ count: Int) {
        guard gate.limit > 0 else { return }
        var wait = gate.delay(afterReceiving: count, now: Self.now())
        while wait > 0, !cancelled.load(ordering: .relaxed) {
            let step = min(wait, 0.05)
            usleep(useconds_t(step * 1_000_000))
            wait -= step
        }
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Called before every connection (`ds_curl_set_address_check`): applies `RedirectPolicy`.
    func admits(_ address: IPAddress) -> Bool {
        let scope = options.addressClassifier.scope(of: address)
        if !redirected, origin == nil { origin = AddressOrigin(scope: scope, address: address) }
        let allowed = RedirectPolicy.admits(
            target: scope, original: origin?.scope, redirected: redirected,
            allowPrivate: options.allowPrivateRedirects, allowLinkLocal: options.allowLinkLocal,
            sameHost: origin?.isSameHost(address) ?? false)
        if !allowed { refusal = Self.refusal(address: "\(address.unmapped)", scope: scope, redirected: redirected) }
        return allowed
    }

    /// Why `url` may not be requested (a metadata host name, or a link-local address literal; after a redirect, an
    /// address literal in another scope), checked before any connection to it; nil when it may be.
    func refusal(of url: String, redirected: Bool) -> String? {
        guard let host = AddressScope.host(ofURL: url) else { return nil }
        if AddressScope.isMetadataHost(host), !options.allowLinkLocal {
            return "\(redirected ? "redirect to " : "")\(host) refused: a cloud metadata host name (allow it with "
                + "[network] allow_link_local = true)"
        }
        guard let address = IPAddress(host) else { return nil }
        let scope = options.addressClassifier.scope(of: address)
        if scope == .linkLocal, !options.allowLinkLocal {
            return Self.refusal(address: host, scope: scope, redirected: redirected)
        }
        // Behind a proxy no connection is seen: a redirect's address literal is judged here.
        guard redirected, options.proxy != nil, let origin, !options.allowPrivateRedirects else { return nil }
        let allowed = RedirectPolicy.admits(
            target: scope, original: origin.scope, redirected: true, allowPrivate: false,
            allowLinkLocal: options.allowLinkLocal, sameHost: origin.isSameHost(address))
        return allowed ? nil : Self.refusal(address: host, scope: scope, redirected: true)
    }

    static func refusal(address: String, scope: AddressScope, redirected: Bool) -> String {
        if scope == .linkLocal {
            return "\(redirected ? "redirect to " : "connection to ")\(address) refused: "
                + "a link-local or cloud metadata address (allow it with [network] allow_link_local = true)"
        }
        return "redirect to \(address) refused: a redirect may not change the address scope (public, private) or "
            + "lead to another private host (allow it with [network] allow_private_redirects = true)"
    }
}

private func addressCheck(
    _ user: UnsafeMutableRawPointer?, _ family: Int32, _ bytes: UnsafePointer<UInt8>?, _ port: UInt32
) -> Int32 {
    guard let user, let bytes else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(user).takeUnretainedValue()
    let count = family == AF_INET6 ? 16 : 4
    let address = IPAddress(bytes: Array(UnsafeBufferPointer(start: bytes, count: count)), port: Int(port))
    return context.admits(address) ? 1 : 0
}

private func headerCallback(
    _ pointer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
)
    -> Int
{
    guard let pointer, let user else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(user).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
    let line = String(decoding: bytes, as: UTF8.self)
    if let head = context.parser.consume(line) {
        if head.isRedirect, let location = head.value("Location") {
            context.redirected = true
            guard context.options.followRedirects else {
                context.receiver.head(head)
                return size * count
            }
            // A metadata name or a link-local literal is refused before libcurl connects to it.
            let absolute = location.hasPrefix("//") ? "http:" + location : location  // scheme-relative
            if let refusal = context.refusal(of: absolute, redirected: true) {
                context.refusal = refusal
                return 0
            }
        }
        context.receiver.head(head)
    }
    return size * count
}

private func writeCallback(
    _ pointer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ user: UnsafeMutableRawPointer?
)
    -> Int
{
    guard let pointer, let user else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    if context.cancelled.load(ordering: .relaxed) { return ds_curl_writefunc_error() }
    guard context.receiver.body(UnsafeRawBufferPointer(start: pointer, count: length)) else {
        context.receiverAborted = true
        return ds_curl_writefunc_error()
    }
    context.bodyBytes += Int64(length)
    context.pace(length)
    return length
}

private func progressCallback(
    _ user: UnsafeMutableRawPointer?, _ dlTotal: curl_off_t, _ dlNow: curl_off_t, _ ulTotal: curl_off_t,
    _ ulNow: curl_off_t
) -> Int32 {
    guard let user else { return 0 }
    let context = Unmanaged<TransferContext>.fromOpaque(user).takeUnretainedValue()
    return context.cancelled.load(ordering: .relaxed) ? 1 : 0
}
