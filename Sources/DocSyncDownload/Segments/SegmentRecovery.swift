import DocSyncSupport

/// What a resumed segmented download may keep (checklist A3–A8 per segment).
extension StagingFile {
    /// Re-hashes every durable chunk and unfinished chunk of `journal` against the file; each extent is cut back to
    /// its last chunk that still hashes to what was recorded (a short file, flipped or zeroed bytes).
    func verifiedExtents(_ journal: SegmentJournal) throws(SystemError) -> SegmentJournal {
        var result = journal
        let chunkSize = journal.chunkSize
        for (index, extent) in journal.extents.enumerated() {
            var good = extent.start
            var state = SHA256().savedState
            var chunk = extent.start
            while chunk < extent.done {
                let end = min(chunk + chunkSize, extent.end)
                let upTo = min(end, extent.done)
                guard let digest = try hashRange(from: chunk, to: upTo) else { break }
                if upTo == end {
                    guard journal.digests[chunk / chunkSize] == digest.finalize().bytes else { break }
                    good = end
                } else {
                    guard SHA256(savedState: extent.chunkState)?.finalize() == digest.finalize() else { break }
                    good = upTo
                    state = extent.chunkState
                }
                chunk = end
            }
            result.extents[index].done = good
            result.extents[index].chunkState = state
        }
        result.digests = result.digests.filter { index, _ in
            result.extents.contains { $0.start <= index * chunkSize && min((index + 1) * chunkSize, $0.end) <= $0.done }
        }
        return result
    }

    /// The SHA-256 of bytes `start..<end`; nil when the file is shorter.
    private func hashRange(from start: Int64, to end: Int64) throws(SystemError) -> SHA256? {
        var hasher = SHA256()
        return try hash(from: start, to: end, into: &hasher) ? hasher : nil
    }
}
