import DocSyncSupport

/// The hand-over from the first connection to segments (speed): the bytes the single-connection path made
/// durable before the split are kept as the first segment's written extent, never fetched a second time.
extension SegmentedDownload {
    /// What the first segment starts with: bytes `0..<done` durable, the hash state of the chunk unfinished at `done`,
    /// and the digest of every chunk below it.
    struct KeptPrefix {
        var done: Int64 = 0
        var chunkState = SHA256().savedState
        var digests: [Int64: [UInt8]] = [:]
    }

    /// The single-connection partial's durable prefix, at most `limit` bytes, when it belongs to `identity`'s
    /// response and reads back exactly as it was received (its whole-prefix SHA-256 from the version-1 journal: at
    /// the committed end, or at the last chunk checkpoint within `limit`, so at most `limit` bytes are hashed); an
    /// empty prefix otherwise. The per-chunk digests are taken from the bytes that matched that SHA-256.
    func keptPrefix(of identity: SegmentIdentity, limit: Int64) -> KeptPrefix {
        guard let partial = staging.readJournal(), partial.key == key, partial.chunkSize == configuration.chunkSize,
            partial.length == identity.length, partial.committed > 0, partial.committed <= identity.length,
            let received = SHA256(savedState: partial.hashState)?.finalize()
        else { return KeptPrefix() }
        var keep = partial.committed
        var expected = received
        if keep > limit {
            guard let checkpoint = partial.checkpoints.last(where: { $0.offset <= limit }),
                let state = SHA256(savedState: checkpoint.state)?.finalize()
            else { return KeptPrefix() }
            keep = checkpoint.offset
            expected = state
        }
        let chunkSize = configuration.chunkSize
        var whole = SHA256()
        var chunk = SHA256()
        var kept = KeptPrefix()
        let block = TransferMemory.hashBlock
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: block, alignment: 16)
        defer { raw.deallocate() }
        var offset: Int64 = 0
        while offset < keep {
            let count = Int(min(Int64(block), keep - offset))
            let buffer = UnsafeMutableRawBufferPointer(rebasing: raw[..<count])
            guard (try? staging.read(into: buffer, at: offset)) == true else { return KeptPrefix() }
            whole.update(UnsafeRawBufferPointer(buffer))
            var at = offset
            while at < min(offset + Int64(count), keep) {
                let chunkEnd = min((at / chunkSize + 1) * chunkSize, identity.length)
                let end = min(chunkEnd, keep, offset + Int64(count))
                chunk.update(UnsafeRawBufferPointer(rebasing: buffer[Int(at - offset)..<Int(end - offset)]))
                at = end
                if at == chunkEnd {
                    kept.digests[(chunkEnd - 1) / chunkSize] = chunk.finalize().bytes
                    chunk = SHA256()
                }
            }
            offset += Int64(count)
        }
        guard whole.finalize() == expected else { return KeptPrefix() }
        kept.done = keep
        kept.chunkState = chunk.savedState
        return kept
    }
}
