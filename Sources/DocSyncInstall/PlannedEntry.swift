/// What the writer should create for one accepted entry, relative to the docset root.
package struct PlannedEntry: Sendable, Equatable {
    package enum Action: Sendable, Equatable {
        case directory
        /// A regular file created with exactly `mode` (0o644 or 0o755).
        case file(mode: UInt32)
        case symlink(target: [UInt8])
    }

    /// Path components under the docset root (never empty, no ".", "..", "/" or NUL).
    package var components: [[UInt8]]
    package var action: Action
    /// The archive's own path, for messages.
    package var archivePath: String

    package init(components: [[UInt8]], action: Action, archivePath: String) {
        self.components = components
        self.action = action
        self.archivePath = archivePath
    }

    package var relativePath: String { components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/") }
}

/// The policy's verdict on one entry.
package enum EntryDecision: Sendable, Equatable {
    case accept(PlannedEntry)
    /// Nothing to write: AppleDouble `._*` files, `__MACOSX/`, and directory entries for the docset folder itself.
    case skip
    case reject(EntryRule)
}
