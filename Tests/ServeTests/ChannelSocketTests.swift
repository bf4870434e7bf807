import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import TestSupport
import Testing

@testable import DocSyncServe

#if canImport(Glibc)
    import Glibc
#endif

/// ``ChannelSocket``: the descriptor under a NIO TCP channel is found (and checked against the channel's
/// addresses), an embedded channel has none, and what is sent on it — a head held back with `MSG_MORE` then a file
/// with `sendfile`, or two buffers in one `writev` — reaches the peer whole and in order.
@Suite(.timeLimit(.minutes(10)), .blockingWaits) struct ChannelSocketTests {
    @Test func theDescriptorOfATCPChannelSendsHeadsFilesAndBuffers() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let found = group.next().makePromise(of: ChannelSocket?.self)
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                found.succeed(ChannelSocket(channel))
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let client = try RawHTTP.Connection(port: try #require(server.localAddress?.port))
        defer { client.close() }
        let socket = try #require(try await found.futureResult.get())

        var random = TestRandom.fromEnvironment("DOCSYNC_TEST_SEED")
        print("ChannelSocketTests seed \(random.seed)")
        let page = (0..<(40 << 10)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("channel-socket-\(getpid())").path
        defer { unlink(path) }
        try Data(page).write(to: URL(fileURLWithPath: path))
        let file = open(path, O_RDONLY | O_CLOEXEC)
        #expect(file >= 0)
        defer { close(file) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(page.count)\r\n\r\n".utf8)
        let first = Array("first".utf8)
        let second = Array("second".utf8)
        let reading = Task { try await client.reading(head.count + page.count + first.count + second.count) }
        #expect(head.withUnsafeBytes { socket.send(head: $0, file: file, count: page.count) } == .all)
        #expect(first.withUnsafeBytes { a in second.withUnsafeBytes { socket.send(a, $0) } } == .all)
        #expect(try await reading.value == head + page + first + second, "seed \(random.seed)")
        // A file shorter than the head said: the connection is broken, not answered short.
        #expect(head.withUnsafeBytes { socket.send(head: $0, file: file, count: page.count + 1) } == .failed)

        #expect(ChannelSocket(EmbeddedChannel()) == nil)
        try await server.close()
        try await group.shutdownGracefully()
    }
}
