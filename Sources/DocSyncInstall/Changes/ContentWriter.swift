import DocSyncSupport

/// Where a content record's bytes go: a buffer of about 64 KiB handed to `sink` whenever it fills, and at `finish`.
final class ContentWriter {
    private var buffer: [UInt8] = []
    private let sink: ([UInt8]) throws(SystemError) -> Void

    init(_ sink: @escaping ([UInt8]) throws(SystemError) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(64 << 10)
    }

    func write(_ bytes: some Sequence<UInt8>) throws(SystemError) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 64 << 10 { try finish() }
    }

    /// Hands over what is buffered.
    func finish() throws(SystemError) {
        guard !buffer.isEmpty else { return }
        try sink(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
