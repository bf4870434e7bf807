import NIOCore
import NIOHTTP1

/// Answers warm pages on the connection's event loop (``PageFastPath``), right after NIO's HTTP/1 decoder: no
/// conversion to HTTP types, no task, no hop to the cooperative pool, no async writer. The answer's bytes (a head
/// rendered in one buffer, then the body) go straight to the socket past NIO's response encoder, and are flushed
/// once per read batch (`channelReadComplete`), so pipelined requests go out in one `writev`. Everything else is
/// passed on unchanged to the HTTP/1 ↔ HTTP types codec and Hummingbird's async handler.
///
/// Being first, it also keeps the connection's state that Hummingbird's `HTTPConnectionStateHandler` kept (it
/// replaces it): the idle timeout (a connection with nothing read or in progress for `idleTimeout` is closed) and
/// graceful shutdown's quiescing (closed now if idle, else after the answer in progress).
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
    private let idleTimeout: TimeAmount?
    /// The response encoder's context: raw bytes written through it skip the encoder (they are already HTTP).
    private var socket: ChannelHandlerContext?
    private var current = Current.none
    /// Requests passed on whose answer has not been written yet.
    private var passedOn = 0
    private var needsFlush = false
    private var closing = false
    /// Graceful shutdown asked for: close after the answer in progress.
    private var quiescing = false
    private var lastActive = NIODeadline.now()
    private var idleCheck: Scheduled<Void>?

    init(pages: PageFastPath, idleTimeout: TimeAmount?) {
        self.pages = pages
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        socket = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        if context.channel.isActive { scheduleIdleCheck(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        socket = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        scheduleIdleCheck(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActive = .now()
        switch unwrapInboundIn(data) {
        case .head(let request):
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
                    socket.write(NIOAny(head), promise: nil)
                    if let body { socket.write(NIOAny(body), promise: nil) }
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
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data), passedOn > 0 else {
            context.write(data, promise: promise)
            return
        }
        passedOn -= 1
        lastActive = .now()
        if passedOn == 0, quiescing, !isReading {
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        } else {
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
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

    private func scheduleIdleCheck(_ context: ChannelHandlerContext) {
        guard let idleTimeout, idleCheck == nil else { return }
        lastActive = .now()
        schedule(context, at: lastActive + idleTimeout, idleTimeout: idleTimeout)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline, idleTimeout: TimeAmount) {
        idleCheck = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(deadline: deadline) {
            self.idleCheck = nil
            guard context.channel.isActive else { return }
            let now = NIODeadline.now()
            if self.passedOn > 0, !self.isReading {
                // An answer in progress (the async route's own deadlines bound it): look again later.
                self.schedule(context, at: now + idleTimeout, idleTimeout: idleTimeout)
            } else if now >= self.lastActive + idleTimeout {
                context.close(promise: nil)
            } else {
                self.schedule(context, at: self.lastActive + idleTimeout, idleTimeout: idleTimeout)
            }
        }
    }
}
