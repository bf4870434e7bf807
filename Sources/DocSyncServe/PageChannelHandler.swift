import NIOCore
import NIOHTTP1

/// Answers warm pages on the connection's event loop (``PageFastPath``), right after NIO's HTTP/1 decoder: no
/// conversion to HTTP types, no task, no hop to the cooperative pool, no async writer. The answer's bytes (a head
/// rendered in one buffer, then the body) go straight to the socket past NIO's response encoder, and are flushed
/// once per read batch (`channelReadComplete`), so pipelined requests go out in one `writev`. Everything else is
/// passed on unchanged to the HTTP/1 ↔ HTTP types codec and Hummingbird's async handler.
///
/// Being first, it also keeps the connection's state that Hummingbird's `HTTPConnectionStateHandler` kept (it
/// replaces it): graceful shutdown's quiescing (closed now if idle, else after the answer in progress), and the
/// connection's deadlines (``ConnectionTimeouts``: waiting for a request, its head from its first byte as
/// ``PageFront`` reports it, its body), which a trickle does not reset. It tells ``IdleConnections`` when
/// the connection opens, becomes idle or busy, and closes, and closes it when asked to make room if still idle.
///
/// Answers stay in request order: while a request passed on is unanswered (its answer's `end` not yet written
/// back through here), later requests are passed on too. A connection whose socket buffer is full (a client not
/// reading) is passed on as well, so the async writer's backpressure holds. `Connection: close` is honoured as
/// the async handler honours it: the output is closed after the answer, later requests are ignored.
final class PageChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum Current {
        /// Between requests.
        case none
        /// A request passed on: its body and end follow it.
        case passing
        /// A request answered here: its answer is written at its end (its body, if any, dropped).
        case answered(ByteBuffer, ByteBuffer?, close: Bool)
        /// After `Connection: close`: ignored.
        case ignoring
    }

    private let pages: PageFastPath
    private let timeouts: ConnectionTimeouts
    private let connections: IdleConnections
    /// The response encoder's context: raw bytes written through it skip the encoder (they are already HTTP).
    private var socket: ChannelHandlerContext?
    private var current = Current.none
    /// Requests passed on whose answer has not been written yet.
    private var passedOn = 0
    private var needsFlush = false
    private var closing = false
    /// Graceful shutdown asked for: close after the answer in progress.
    private var quiescing = false
    /// Since when the connection waits for a request (accepted, or its last answer written).
    private var lastActive = NIODeadline.now()
    /// The first byte of a request head not complete yet arrived then.
    private var headStarted: NIODeadline?
    /// The head of the request being read (its body and end not yet) was complete then.
    private var bodyStarted = NIODeadline.now()
    /// A head was read in this read batch (``IdleConnections`` is told at its end).
    private var sawRequest = false
    private var deadlineCheck: Scheduled<Void>?
    private var checkAt = NIODeadline.distantFuture
    private var registered = false
    /// The decoder failed (``PageFront`` stops answering: the connection is closing).
    private var failed = false
    /// The connection's socket, when plain `GET`s of remembered pages are sent on it past NIO (``ChannelSocket``).
    private var direct: ChannelSocket?
    /// Answers (or their ends) written through NIO and not yet out of its queue, counted while ``direct`` is set:
    /// nothing is sent past NIO before they are.
    private var queued = 0

    init(pages: PageFastPath, timeouts: ConnectionTimeouts, connections: IdleConnections) {
        self.pages = pages
        self.timeouts = timeouts
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socket = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        if context.channel.isActive { opened(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelCheck()
        socket = nil
        closed(context)
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelCheck()
        closed(context)
        context.fireChannelInactive()
    }

    /// Bytes arrived (``PageFront``): the first of a request's head starts its deadline.
    func bytesArrived() {
        if headStarted == nil, passedOn == 0, !isReading { headStarted = .now() }
    }

    /// Whether ``PageFront`` may answer a request now: between requests, none unanswered, not closing.
    var canAnswerFront: Bool { passedOn == 0 && !isReading && !closing && !quiescing && !failed && socket != nil }

    /// Answers a plain `GET` of `target` that ``PageFront`` read before the decoder (``canAnswerFront``), as a
    /// decoded head would be answered (``PageFastPath/answer(_:head:conditions:allocator:remote:)``); false when
    /// the async route must answer (the decoder reads the head then).
    func answerFront(_ target: String, channel: any Channel) -> Bool {
        guard let socket, channel.isWritable else { return false }
        if let direct, queued == 0, !needsFlush, channel.isActive,
            let sending = pages.send(
                target, on: direct, allocator: channel.allocator,
                remote: { channel.remoteAddress?.ipAddress ?? "-" })
        {
            headStarted = nil
            sawRequest = true
            lastActive = .now()
            switch sending {
            case .sent:
                break
            case .rest(let rest):
                socket.write(NIOAny(rest), promise: queuedPromise(channel))
                needsFlush = true
            case .broken:
                closing = true
                channel.close(promise: nil)
            }
            return true
        }
        guard
            let (head, body) = pages.answer(
                target, head: false, conditions: PageConditions(), allocator: channel.allocator,
                remote: { channel.remoteAddress?.ipAddress ?? "-" })
        else { return false }
        headStarted = nil
        sawRequest = true
        if let body {
            socket.write(NIOAny(head), promise: nil)
            socket.write(NIOAny(body), promise: queuedPromise(channel))
        } else {
            socket.write(NIOAny(head), promise: queuedPromise(channel))
        }
        needsFlush = true
        lastActive = .now()
        return true
    }

    /// A promise for the last write of an answer written through NIO, counted in ``queued`` until NIO has written
    /// it out (or failed); nil when nothing is sent past NIO on this connection.
    private func queuedPromise(_ channel: any Channel) -> EventLoopPromise<Void>? {
        guard direct != nil else { return nil }
        queued += 1
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolatedUnsafeUnchecked().whenComplete { _ in self.queued -= 1 }
        return promise
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failed = true
        context.fireErrorCaught(error)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            headStarted = nil
            bodyStarted = .now()
            sawRequest = true
            if closing {
                current = .ignoring
            } else if passedOn == 0, socket != nil, context.channel.isWritable,
                let (head, body) = pages.answer(
                    request, allocator: context.channel.allocator,
                    remote: { context.channel.remoteAddress?.ipAddress ?? "-" })
            {
                current = .answered(head, body, close: !request.isKeepAlive)
            } else {
                passedOn += 1
                current = .passing
                context.fireChannelRead(data)
            }
        case .body:
            if case .passing = current { context.fireChannelRead(data) }
        case .end:
            switch current {
            case .passing:
                context.fireChannelRead(data)
            case .answered(let head, let body, let close):
                if let socket {
                    if let body {
                        socket.write(NIOAny(head), promise: nil)
                        socket.write(NIOAny(body), promise: queuedPromise(context.channel))
                    } else {
                        socket.write(NIOAny(head), promise: queuedPromise(context.channel))
                    }
                }
                needsFlush = true
                if close || quiescing {
                    closing = true
                    needsFlush = false
                    context.flush()
                    if quiescing {
                        context.close(promise: nil)
                    } else {
                        context.close(mode: .output, promise: nil)  // after the pending writes
                    }
                }
            case .none, .ignoring:
                break
            }
            current = .none
            if passedOn == 0 { lastActive = .now() }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        if sawRequest {
            sawRequest = false
            if isIdle { connections.idle(context.channel) } else { connections.busy(context.channel) }
        }
        armCheck(context)
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), passedOn > 0 else {
            context.write(data, promise: promise)
            return
        }
        passedOn -= 1
        var promise = promise
        if let mine = queuedPromise(context.channel) {
            mine.futureResult.cascade(to: promise)
            promise = mine
        }
        if isIdle {
            lastActive = .now()
            connections.idle(context.channel)
            armCheck(context)
        }
        if passedOn == 0, quiescing, !isReading {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        } else {
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleConnections.MakeRoom {
            if isIdle { context.close(promise: nil) }
            return
        }
        guard event is ChannelShouldQuiesceEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiescing = true
        if passedOn == 0, !isReading {
            if needsFlush {
                needsFlush = false
                context.flush()
            }
            context.close(promise: nil)
        }
    }

    /// A request's head read, its end not yet.
    private var isReading: Bool {
        switch current {
        case .none: false
        case .passing, .answered, .ignoring: true
        }
    }

    /// No request in progress: waiting for one, or receiving its head.
    private var isIdle: Bool { passedOn == 0 && !isReading }

    private var phase: ConnectionTimeouts.Phase {
        if isReading { return .body(since: bodyStarted) }
        if passedOn > 0 { return .answering }
        if let headStarted { return .head(since: headStarted) }
        return .waiting(since: lastActive)
    }

    private func opened(_ context: ChannelHandlerContext) {
        guard !registered else { return }
        registered = true
        lastActive = .now()
        direct = ChannelSocket(context.channel)
        if let oldest = connections.opened(context.channel) {
            oldest.pipeline.fireUserInboundEventTriggered(IdleConnections.MakeRoom())
        }
        armCheck(context)
    }

    private func closed(_ context: ChannelHandlerContext) {
        guard registered else { return }
        registered = false
        direct = nil
        connections.closed(context.channel)
    }

    private func cancelCheck() {
        deadlineCheck?.cancel()
        deadlineCheck = nil
        checkAt = .distantFuture
    }

    /// Makes sure the deadline check runs no later than the current phase's deadline (an answer in progress is
    /// looked at again an idle timeout later).
    private func armCheck(_ context: ChannelHandlerContext) {
        guard registered else { return }
        let due = timeouts.deadline(phase) ?? .now() + timeouts.idle
        guard deadlineCheck == nil || due < checkAt else { return }
        deadlineCheck?.cancel()
        checkAt = due
        deadlineCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: due) {
            self.deadlineCheck = nil
            self.checkAt = .distantFuture
            guard context.channel.isActive else { return }
            if let deadline = self.timeouts.deadline(self.phase), .now() >= deadline {
                context.close(promise: nil)
            } else {
                self.armCheck(context)
            }
        }
    }
}
