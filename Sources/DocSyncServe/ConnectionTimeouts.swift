import NIOCore

/// The deadlines of one connection (`[serve] idle_timeout`, `header_timeout`, `body_timeout`), by what it is doing:
/// waiting for a request's first byte, receiving the head, receiving the body, or answering (no deadline here: the
/// route's `request_timeout` bounds it). Each is counted from the start of its phase and not reset by bytes
/// arriving within it, so a client trickling a head or body a byte at a time is closed when its phase's time is up,
/// as nginx's `client_header_timeout` closes it.
struct ConnectionTimeouts: Sendable, Equatable {
    /// Waiting for the first byte of a request.
    var idle: TimeAmount
    /// From the first byte of a request head to its end.
    var header: TimeAmount
    /// From the end of the head to the end of the request (its body).
    var body: TimeAmount

    /// What a connection is doing, since when.
    enum Phase: Equatable {
        case waiting(since: NIODeadline)
        case head(since: NIODeadline)
        case body(since: NIODeadline)
        case answering
    }

    /// When a connection in `phase` is closed, or nil while it answers.
    func deadline(_ phase: Phase) -> NIODeadline? {
        switch phase {
        case .waiting(let since): since + idle
        case .head(let since): since + header
        case .body(let since): since + body
        case .answering: nil
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        self = .nanoseconds(Int64(duration / .nanoseconds(1)))
    }
}
