/// What a walk over an archive shows a caller doing more in the same pass — the installer hashes and copies the
/// archive's bytes and extracts the records outside `Documents/` while the store is indexed or checked, so a flushed
/// archive is read and inflated once. Each closure may throw to stop the walk (the caller keeps its own error).
package struct TarixWalkObserver {
    /// Every byte of the archive file, in order, exactly once (the gzip header and trailer included).
    package var read: (UnsafeRawBufferPointer) throws(TarixError) -> Void
    /// Every tar record (pax global headers included), before `TarixPathPolicy` judges it.
    package var record: (TarRecord) throws(TarixError) -> Void
    /// The data of the record last reported, in order, in chunks (padding excluded).
    package var data: (UnsafeRawBufferPointer) throws(TarixError) -> Void

    package init(
        read: @escaping (UnsafeRawBufferPointer) throws(TarixError) -> Void,
        record: @escaping (TarRecord) throws(TarixError) -> Void,
        data: @escaping (UnsafeRawBufferPointer) throws(TarixError) -> Void
    ) {
        self.read = read
        self.record = record
        self.data = data
    }
}
