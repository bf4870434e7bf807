import DocSyncSupport

/// Why an install or removal failed. Whatever the case, the installed version (if any) is unchanged.
package enum InstallError: Error, Sendable, CustomStringConvertible {
    /// An entry broke a safety rule.
    case rejected(entry: String, rule: EntryRule)
    /// The archive is not a supported format, or is corrupt or truncated.
    case unreadableArchive(String)
    /// The unpacked tree is not a docset: these required paths are missing.
    case notADocset(missing: [String])
    /// The docset name cannot be a folder name.
    case invalidName(String, reason: String)
    /// Not enough free space (bytes or inodes) on the root's file system.
    case insufficientSpace(what: String, needed: Int64, available: Int64)
    /// The unpacked tree is a docset no reader could open (its index is not an SQLite docset index, or Zeal could
    /// not find its documents); the message names the path at fault.
    case unreadableDocset(String)
    /// A system call failed.
    case io(SystemError)
    /// `remove(name:)` of a docset that is not installed.
    case notInstalled(String)
    /// `<root>/NAME.docset` is something docsync did not create (a folder, a file, a foreign link): left alone.
    case foreign(String, reason: String)
    /// libarchive is missing or lacks a function docsync calls (it is loaded by the first archive read).
    case libraryUnavailable(LibraryUnavailable)

    /// True when the archive itself is at fault (CLI exit status 65).
    package var isArchiveRejection: Bool {
        switch self {
        case .rejected, .unreadableArchive, .notADocset, .unreadableDocset: true
        default: false
        }
    }

    package var description: String {
        switch self {
        case .rejected(let entry, let rule): "archive entry '\(entry.escapingControlCharacters)' rejected: \(rule)"
        case .unreadableArchive(let reason): "unreadable archive: \(reason)"
        case .notADocset(let missing): "not a docset: missing \(missing.joined(separator: ", "))"
        case .invalidName(let name, let reason): "invalid docset name '\(name.escapingControlCharacters)': \(reason)"
        case .insufficientSpace(let what, let needed, let available):
            "not enough free \(what): need about \(needed), \(available) available"
        case .unreadableDocset(let reason): "no reader could open this docset: \(reason)"
        case .io(let error): "\(error)"
        case .notInstalled(let name): "\(name).docset is not installed"
        case .foreign(_, let reason): reason
        case .libraryUnavailable(let library): library.description
        }
    }
}
