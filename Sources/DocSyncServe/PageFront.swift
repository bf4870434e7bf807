import NIOCore

/// First in a connection's pipeline, before NIO's HTTP/1 decoder. It tells the ``PageChannelHandler`` that bytes
/// arrived, so that the first byte of a request head starts its `header_timeout` (the decoder says nothing until
/// the head is complete, and a trickled head would otherwise look like an idle connection).
///
/// And it answers the commonest request without the decoder: a plain `GET` of a page (no query, no conditional or
/// range field), whose head arrived whole (``RawRequestHead``: strict, at most 4 KiB), when the event loop can
/// answer it (``PageFastPath``: remembered or warm). The handler after the decoder writes the answer — the same
/// bytes as for the decoded head — when it is between requests; no `HTTPRequestHead`, header dictionary or decoder
/// state is made for it. Every other head
/// goes on to the decoder in order, whole: the decoder is then again between requests. A head cut short by the end
/// of a read (``RawRequestHead/Kind/incomplete``) is kept here, at most ``RawRequestHead/maximumBytes``, and read
/// again with the bytes that follow it (or passed on when the connection's input ends), so a client whose requests
/// straddle its reads keeps the short path. Once bytes arrive that this reader does not vouch for (a body, anything
/// unusual), or the decoder failed, every byte of the connection goes to the decoder, as before.
final class PageFront: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: PageChannelHandler
    /// The decoder has consumed whole heads only (it waits for a new request).
    private var splitting: Bool
    /// The start of a head cut short by the end of the last read, not passed on yet.
    private var pending: ByteBuffer?

    /// `splitting: false` passes every byte to the decoder (for tests: the answers are the same).
    init(connection: PageChannelHandler, splitting: Bool = true) {
        self.connection = connection
        self.splitting = splitting
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.bytesArrived()
        guard splitting else {
            context.fireChannelRead(data)
            return
        }
        var buffer = unwrapInboundIn(data)
        if var held = pending {
            pending = nil
            held.writeBuffer(&buffer)
            buffer = held
        }
        while buffer.readableBytes > 0 {
            guard connection.canAnswerFront else {
                // An answer in progress (or the connection closing): what follows keeps its place behind it
                // through the decoder.
                forwardWholeHeads(&buffer, context: context)
                return
            }
            let head = buffer.withUnsafeReadableBytes { RawRequestHead.parse($0) }
            var answered = false
            switch head.kind {
            case .unknown:
                splitting = false
                context.fireChannelRead(wrapInboundOut(buffer))
                return
            case .incomplete:
                pending = buffer
                return
            case .plainPage(let target):
                answered = buffer.withUnsafeReadableBytes { bytes in
                    connection.answerFront(
                        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[target]), as: UTF8.self),
                        channel: context.channel)
                }
            case .other:
                break
            }
            if !answered {
                context.fireChannelRead(wrapInboundOut(buffer.getSlice(at: buffer.readerIndex, length: head.end)!))
            }
            buffer.moveReaderIndex(forwardBy: head.end)
        }
    }

    /// The connection's input ended: a head kept here goes to the decoder first, as if never held.
    func channelInactive(context: ChannelHandlerContext) {
        passPending(context: context)
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(ChannelEvent.inputClosed) = event as? ChannelEvent { passPending(context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    private func passPending(context: ChannelHandlerContext) {
        guard let held = pending else { return }
        pending = nil
        context.fireChannelRead(wrapInboundOut(held))
    }

    /// Passes `buffer`'s whole heads on to the decoder and keeps a head cut short at its end; stops splitting (and
    /// passes everything) unless they are whole heads without bodies (after which the decoder waits for a new
    /// request).
    private func forwardWholeHeads(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) {
        guard buffer.readableBytes > 0 else { return }
        var rest = buffer
        while rest.readableBytes > 0 {
            let head = rest.withUnsafeReadableBytes { RawRequestHead.parse($0) }
            if head.kind == .incomplete {
                pending = rest
                buffer = buffer.getSlice(at: buffer.readerIndex, length: rest.readerIndex - buffer.readerIndex)!
                break
            }
            guard head.end > 0 else {
                splitting = false
                break
            }
            rest.moveReaderIndex(forwardBy: head.end)
        }
        if buffer.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(buffer)) }
    }
}
