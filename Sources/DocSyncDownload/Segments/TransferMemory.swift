/// The buffers of one download, from one budget whatever plan the split probe picks (#39: `fetch` peaks at ≤ 24 MiB
/// in every plan, not only on one connection). The single connection spends it on libcurl's 64 KiB receive buffer
/// and `WritePipeline`'s ring (16 × 64 KiB); a segmented run on each connection's receive buffer (a segment writes
/// straight from it) and the read block of `PrefixHasher` and the hand-over's prefix check, so more connections get
/// smaller receive buffers instead of more memory — within `splitBuffers`, less than the budget, because every
/// connection also costs a thread, a libcurl handle and a malloc arena (+1.6–2.7 MiB at 16 connections,
/// Benchmarks/README.md), which the single connection spends on its ring instead. Pure policy: `plan(connections:)`.
package struct TransferMemory: Sendable, Equatable {
    /// `WritePipeline`'s ring on the single connection: 1 MiB, written 512 KiB at a time while the other half fills
    /// (8 × 64 KiB written 256 KiB at a time kept a fast transfer waiting for the disk).
    package static let ring = 16 * (64 << 10)
    /// Bytes of buffers one download may hold: the single connection's receive buffer and ring.
    package static let budget = largestReceiveBuffer + ring
    /// What a segmented run's receive buffers and hash block may hold together (576 KiB): the rest of the budget
    /// goes to its connections' threads, handles and arenas.
    package static let splitBuffers = largestReceiveBuffer + 8 * (64 << 10)
    /// libcurl's buffer on a connection that has the budget to itself (larger was no faster, `Curl`).
    package static let largestReceiveBuffer = 64 << 10
    /// The smallest receive buffer worth a connection: 16 KiB, libcurl's default and the most it hands the write
    /// callback at once (`CURL_MAX_WRITE_SIZE`), so buffers are whole multiples of it: a read of 20 KiB would reach
    /// the receiver as 16 + 4 KiB, more calls (each a pwrite) for the same bytes.
    package static let smallestReceiveBuffer = 16 << 10
    /// What a segmented run reads back at once to hash the durable prefix (from the page cache: 64 KiB reads cost
    /// ~3 µs each beside ~45 µs of hashing).
    package static let hashBlock = 64 << 10

    /// libcurl's receive buffer on each connection (`HTTPOptions.receiveBufferSize`).
    package var receiveBuffer: Int
    /// Bytes read back at once to hash what is on disk (0 on the single connection: its ring hashes in flight).
    package var hashBlock: Int

    package init(receiveBuffer: Int, hashBlock: Int) {
        self.receiveBuffer = receiveBuffer
        self.hashBlock = hashBlock
    }

    /// The budget divided among `connections` transfers (1: the single-connection path): each connection's receive
    /// buffer is what `splitBuffers` leaves after the hash block, shared equally, in whole 16 KiB between 16 and
    /// 64 KiB.
    package static func plan(connections: Int) -> TransferMemory {
        guard connections > 1 else { return TransferMemory(receiveBuffer: largestReceiveBuffer, hashBlock: 0) }
        let share = (splitBuffers - hashBlock) / connections / smallestReceiveBuffer * smallestReceiveBuffer
        return TransferMemory(
            receiveBuffer: min(largestReceiveBuffer, max(smallestReceiveBuffer, share)), hashBlock: hashBlock)
    }
}
