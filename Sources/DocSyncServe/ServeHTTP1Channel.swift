import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Hummingbird's HTTP/1 child channel with a ``PageChannelHandler`` right after NIO's HTTP/1 decoder: warm pages
/// are answered on the event loop from the decoded head, every other request goes on to the HTTP types codec and
/// the async responder as before. The pipeline is `HTTP1Channel`'s (encoder, decoder, codec, async channel) with
/// the page handler in place of Hummingbird's connection-state handler, whose idle timeout and quiescing it keeps:
/// it is the only handler that sees every request. A ``PageFront`` before the decoder tells it when a head's first
/// byte arrives (its deadline starts then), and has it answer plain `GET`s of remembered pages without the decoder.
///
/// The decoder is not paired with the encoder (NIO pairs them so that the encoder drops a body written for a
/// `HEAD`): answers written here bypass the encoder, which would then pair the wrong requests; the async route
/// writes no body for `HEAD` (`Routes.respond(to:timeout:)`), so nothing depends on it.
struct ServeHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let pages: PageFastPath
    let timeouts: ConnectionTimeouts
    let connections: IdleConnections

    var responder: HTTPChannelHandler.Responder { http1.responder }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let configuration = http1.configuration
        let pages = self.pages
        let timeouts = self.timeouts
        let connections = self.connections
        return channel.eventLoop.makeCompletedFuture {
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = configuration.httpDecoder.maxHeaderFieldSize
            limits.maxHeaderListSize = configuration.httpDecoder.maxHeaderListSize
            limits.maxHeaderFieldCount = configuration.httpDecoder.maxHeaderFieldCount
            let decoder = HTTPRequestDecoder(
                leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .drop, limitConfiguration: limits)
            let operations = channel.pipeline.syncOperations
            let connection = PageChannelHandler(pages: pages, timeouts: timeouts, connections: connections)
            try operations.addHandler(PageFront(connection: connection))
            try operations.addHandler(HTTPResponseEncoder(configuration: .init()))
            try operations.addHandler(ByteToMessageHandler(decoder))
            try operations.addHandler(connection)
            try operations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            return try NIOAsyncChannel(
                wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
