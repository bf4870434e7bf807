// libFuzzer target for the journal reader: every input is decoded as `<key>.journal` bytes. Inputs are tried as
// they come and with a valid trailing SHA-256 appended (so the fuzzer reaches the field parser, not only the
// checksum). Invariants: a decoded journal is consistent (P ≤ L ≤ 1 PiB, checkpoints on chunk boundaries) and
// re-encodes to bytes that decode to the same journal. Built and run by scripts/fuzz-journal.
import DocSyncSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func journalFuzzTarget(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    check(Journal(decoding: bytes))
    check(Journal(decoding: bytes + SHA256.hash(bytes).bytes))
    return 0
}

private func check(_ journal: Journal?) {
    guard let journal else { return }
    precondition(journal.chunkSize > 0 && journal.committed >= 0)
    if let length = journal.length { precondition(journal.committed <= length && length <= Journal.maxLength) }
    precondition(Int64(journal.checkpoints.count) == journal.committed / journal.chunkSize)
    for (index, checkpoint) in journal.checkpoints.enumerated() {
        precondition(checkpoint.offset == Int64(index + 1) * journal.chunkSize)
    }
    precondition(Journal(decoding: journal.encoded()) == journal, "a journal survives its own encoding")
}
