/// The rule an archive entry broke. Every rejection names one.
package enum EntryRule: Error, Sendable, Equatable, CustomStringConvertible {
    case absolutePath
    case parentTraversal
    case nulByte
    case emptyComponent
    case nameTooLong(limit: Int)
    case pathTooLong(limit: Int)
    case tooDeep(limit: Int)
    case specialFile(String)
    case hardlink
    case symlinkEscapes(target: String)
    case fileTooLarge(limit: Int64)
    case totalBytesExceeded(limit: Int64)
    case expansionRatioExceeded(limit: Int64)
    case tooManyEntries(limit: Int)
    case outsideDocsetFolder
    case rootNotDirectory
    case conflictingDuplicate
    case writeThroughSymlink
    case sizeMismatch(declared: Int64, actual: Int64)

    package var description: String {
        switch self {
        case .absolutePath: "absolute path"
        case .parentTraversal: "'..' component"
        case .nulByte: "NUL byte in name"
        case .emptyComponent: "empty path component"
        case .nameTooLong(let limit): "name component over \(limit) bytes"
        case .pathTooLong(let limit): "path over \(limit) bytes"
        case .tooDeep(let limit): "path deeper than \(limit) directories"
        case .specialFile(let kind): "\(kind) entries are not allowed"
        case .hardlink: "hard links are not allowed"
        case .symlinkEscapes(let target): "symbolic link to '\(target)' leaves the docset"
        case .fileTooLarge(let limit): "file larger than \(limit) bytes"
        case .totalBytesExceeded(let limit): "archive unpacks to more than \(limit) bytes"
        case .expansionRatioExceeded(let limit): "archive expands more than \(limit):1"
        case .tooManyEntries(let limit): "archive has more than \(limit) entries"
        case .outsideDocsetFolder: "entry outside the archive's docset folder"
        case .rootNotDirectory: "the docset folder itself is not a directory"
        case .conflictingDuplicate: "duplicate entry of a different type"
        case .writeThroughSymlink: "path goes through a symbolic link or a file"
        case .sizeMismatch(let declared, let actual): "declared \(declared) bytes, produced \(actual)"
        }
    }
}
