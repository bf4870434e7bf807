/// How far one docset's download or unpacking is (``SyncEvent/progress(_:)``).
public struct DocsetProgress: Sendable, Equatable, Codable {
    /// Which part of the work the bytes count.
    public enum Phase: String, Sendable, Codable {
        /// Archive bytes received.
        case downloading
        /// Archive bytes unpacked (a streaming install unpacks while it downloads).
        case installing
    }

    /// The docset's folder name without `.docset`.
    public var name: String
    /// Which part of the work ``bytes`` counts.
    public var phase: Phase
    /// Bytes done so far.
    public var bytes: Int64
    /// The archive's size, when the server or the feed said.
    public var total: Int64?
    /// Bytes per second, a whole number (JSON prints it as an integer).
    public var rate: Double

    /// Creates a progress value.
    public init(name: String, phase: Phase, bytes: Int64, total: Int64? = nil, rate: Double) {
        self.name = name
        self.phase = phase
        self.bytes = bytes
        self.total = total
        self.rate = rate.isFinite ? rate.rounded() : 0
    }
}
