import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers warm pages on the connection's event loop (``PageFastPath``): no task, no hop to the cooperative pool,
/// no async writer; everything else is passed on to Hummingbird's async handler unchanged. It sits after
/// Hummingbird's `HTTPConnectionStateHandler`, which sees every request and answer (idle timeout, graceful
/// shutdown's quiescing).
///
/// Answers stay in request order: while a request passed on is unanswered (its answer's `end` not yet written
/// back through here), later requests are passed on too. A connection whose socket buffer is full (a client not
/// reading) is passed on as well, so the async writer's backpressure holds. `Connection: close` is honoured as
/// the async handler honours it: the output is closed after the answer, later requests are ignored.
final class PageChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Current {
        /// Between requests.
        case none
        /// A request passed on: its body and end follow it.
        case passing
        /// A request answered here: its answer is written at its end (its body, if any, dropped).
        case answered(HTTPResponse, ByteBuffer?, close: Bool)
        /// After `Connection: close`: ignored.
        case ignoring
    }

    private let pages: PageFastPath
    private var current = Current.none
    /// Requests passed on whose answer has not been written yet.
    private var passedOn = 0
    private var needsFlush = false
    private var closing = false

    init(pages: PageFastPath) { self.pages = pages }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if closing {
                current = .ignoring
            } else if passedOn == 0, context.channel.isWritable,
                let (head, body) = pages.answer(request, remote: { context.channel.remoteAddress?.ipAddress ?? "-" })
            {
                current = .answered(head, body, close: request.headerFields[.connection] == "close")
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
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
                context.write(wrapOutboundOut(.end(nil)), promise: nil)
                needsFlush = true
                if close {
                    closing = true
                    needsFlush = false
                    context.flush()
                    context.close(mode: .output, promise: nil)  // after the pending writes
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
        if case .end = unwrapOutboundIn(data), passedOn > 0 { passedOn -= 1 }
        context.write(data, promise: promise)
    }
}
