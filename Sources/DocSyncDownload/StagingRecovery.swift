import DocSyncSupport

/// What a restart may keep of an earlier partial (checklist A3–A8): only bytes the journal vouches for and that
/// still hash to what it recorded.
extension StagingFile {
    /// Loads the journal and brings the partial in line with it, durably. Returns the state to continue from.
    /// Nothing is created here: without a partial the download starts from zero, and the partial is created once a
    /// response is accepted. `expectedLength` (the feed's) bounds the journal: a journal recording another length
    /// is corrupt or stale and discarded like any bad journal.
    func recover(key: String, chunkSize: Int64, expectedLength: Int64? = nil) throws(SystemError) -> Journal {
        try checkJournalIsOurs()
        let fresh = Journal.empty(key: key, chunkSize: chunkSize)
        let found = readJournal()
        guard partExists else {  // A6: journal without a partial file
            if found != nil || folder.exists(journalName) { try discard() }
            return fresh
        }
        try openPart()
        let plausible =
            found.map { journal in
                guard let length = journal.length, let expectedLength else { return true }
                return length == expectedLength
            } ?? false
        guard let journal = found, journal.key == key, journal.chunkSize == chunkSize, plausible else {  // A5
            try truncate(to: 0, journal: fresh)
            return fresh
        }
        let size = try size()
        let good = try verifiedPrefix(journal, size: size)
        if good.committed != journal.committed || size != good.committed {  // A3, A4, A7, A8
            try truncate(to: good.committed, journal: good)
        }
        return good
    }

    /// The longest prefix of `journal` whose bytes are on disk and hash to the recorded checkpoints.
    private func verifiedPrefix(_ journal: Journal, size: Int64) throws(SystemError) -> Journal {
        var hasher = SHA256()
        for (index, checkpoint) in journal.checkpoints.enumerated() {
            let start = Int64(index) * journal.chunkSize
            guard checkpoint.offset <= size, try hash(from: start, to: checkpoint.offset, into: &hasher),
                hasher.finalize() == SHA256(savedState: checkpoint.state)?.finalize()
            else { return journal.rewound(toCheckpoint: index) }
        }
        let start = Int64(journal.checkpoints.count) * journal.chunkSize
        guard journal.committed <= size, try hash(from: start, to: journal.committed, into: &hasher),
            hasher.finalize() == SHA256(savedState: journal.hashState)?.finalize()
        else { return journal.rewound(toCheckpoint: journal.checkpoints.count) }
        return journal
    }

    /// Folds bytes `start..<end` of the partial into `hasher`; false when the file is shorter. The one re-hashing
    /// loop of a resume, single-connection (`recover`) or segmented (`verifiedExtents`).
    func hash(from start: Int64, to end: Int64, into hasher: inout SHA256) throws(SystemError) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: TransferMemory.hashBlock, alignment: 16)
        defer { buffer.deallocate() }
        var offset = start
        while offset < end {
            let count = Int(min(Int64(buffer.count), end - offset))
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
            guard try read(into: slice, at: offset) else { return false }
            hasher.update(UnsafeRawBufferPointer(slice))
            offset += Int64(count)
        }
        return true
    }
}

extension Journal {
    /// This journal cut back to the end of checkpoint `count` (0: nothing kept).
    func rewound(toCheckpoint count: Int) -> Journal {
        var copy = self
        copy.checkpoints = Array(checkpoints.prefix(count))
        copy.committed = Int64(count) * chunkSize
        copy.hashState = count == 0 ? SHA256().savedState : checkpoints[count - 1].state
        if count == 0 {
            copy.length = nil
            copy.validator = Validator()
        }
        return copy
    }
}
