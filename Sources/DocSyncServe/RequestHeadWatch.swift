import NIOCore

/// First in a connection's pipeline, before NIO's HTTP/1 decoder: tells the ``PageChannelHandler`` that bytes
/// arrived, so that the first byte of a request head starts its `header_timeout` (the decoder says nothing until
/// the head is complete, and a trickled head would otherwise look like an idle connection).
final class RequestHeadWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let connection: PageChannelHandler

    init(connection: PageChannelHandler) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.bytesArrived()
        context.fireChannelRead(data)
    }
}
