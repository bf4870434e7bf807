/// What an archive says about one entry, before any policy is applied. Paths are raw bytes: an archive may carry
/// names that are not UTF-8, and the policy must judge what is there, not a lossy decoding of it.
package struct ArchiveEntryMetadata: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case regular
        case directory
        case symlink(target: [UInt8])
        case hardlink(target: [UInt8])
        case characterDevice
        case blockDevice
        case fifo
        case socket
        case unknown(UInt32)
    }

    package var path: [UInt8]
    package var kind: Kind
    /// Permission bits as archived, including setuid/setgid/sticky (0o7777).
    package var permissions: UInt32
    /// The declared data size; nil when the format does not say (streamed zip entries).
    package var size: Int64?

    package init(path: [UInt8], kind: Kind, permissions: UInt32 = 0o644, size: Int64? = 0) {
        self.path = path
        self.kind = kind
        self.permissions = permissions
        self.size = size
    }

    package init(_ path: String, kind: Kind, permissions: UInt32 = 0o644, size: Int64? = 0) {
        self.init(path: Array(path.utf8), kind: kind, permissions: permissions, size: size)
    }

    /// The path for messages (invalid UTF-8 shown as U+FFFD).
    package var displayPath: String { String(decoding: path, as: UTF8.self) }
}
