/// Decides, entry by entry and without touching the disk, what an archive may create. Pure: the verdict depends only
/// on the entries seen so far and the limits, so every rule has a table test.
///
/// Layout: the archive's single top folder (`X.docset/`) becomes the docset root, a nested `X.docset/Y.docset/` is
/// flattened, and an archive without such a folder (bare `Contents/`) is the docset root as it is. Once the first
/// entry has fixed the layout, entries outside it are rejected.
package struct EntryPolicy: Sendable {
    package let limits: InstallLimits
    /// Size of the whole archive when known (for the expansion ratio).
    package let archiveBytes: Int64?
    package private(set) var entryCount = 0
    package private(set) var declaredBytes: Int64 = 0
    private var layout = Layout.undecided
    /// The tarix layout: entries inside `Contents/Resources/Documents/` (and that folder) are judged by every rule,
    /// then left out of the tree (the tarix store serves them).
    package var skipsDocuments = false

    private enum Layout: Sendable {
        case undecided
        case bare
        /// `top/...`; `innerOpen` while no entry has shown whether a nested `top/Y.docset/` follows.
        case folder(top: [UInt8], innerOpen: Bool)
        case nested(top: [UInt8], inner: [UInt8])
    }

    package init(limits: InstallLimits, archiveBytes: Int64?) {
        self.limits = limits
        self.archiveBytes = archiveBytes
    }

    package mutating func evaluate(_ entry: ArchiveEntryMetadata) -> EntryDecision {
        entryCount += 1
        if entryCount > limits.maxEntryCount { return .reject(.tooManyEntries(limit: limits.maxEntryCount)) }
        let components: [[UInt8]]
        switch Self.split(entry.path, limits: limits) {
        case .failure(let rule): return .reject(rule)
        case .success(let parts): components = parts
        }
        // Device files, FIFOs, sockets and hard links are refused wherever they are, even as AppleDouble names.
        switch entry.kind {
        case .characterDevice: return .reject(.specialFile("character device"))
        case .blockDevice: return .reject(.specialFile("block device"))
        case .fifo: return .reject(.specialFile("FIFO"))
        case .socket: return .reject(.specialFile("socket"))
        case .unknown(let type): return .reject(.specialFile("file type 0o\(String(type, radix: 8))"))
        case .hardlink: return .reject(.hardlink)
        case .regular, .directory, .symlink: break
        }
        if let size = entry.size, size > 0 {
            if size > limits.maxFileBytes { return .reject(.fileTooLarge(limit: limits.maxFileBytes)) }
            declaredBytes += size
            if declaredBytes > limits.maxTotalBytes { return .reject(.totalBytesExceeded(limit: limits.maxTotalBytes)) }
            if let rule = ratioViolation(totalBytes: declaredBytes) { return .reject(rule) }
        }
        if let last = components.last, last.starts(with: Self.appleDoublePrefix) { return .skip }
        if components.first == Self.macOSFolder || components.isEmpty { return .skip }

        let mapped: [[UInt8]]
        switch map(components) {
        case .failure(let rule): return .reject(rule)
        case .success(let parts): mapped = parts
        }
        if mapped.isEmpty {
            if case .directory = entry.kind { return .skip }
            return .reject(.rootNotDirectory)
        }
        if skipsDocuments, Self.isInDocuments(mapped) {
            if case .symlink = entry.kind { return .reject(.specialFile("symbolic link (tarix layout)")) }
            return .skip
        }
        let action: PlannedEntry.Action
        switch entry.kind {
        case .directory: action = .directory
        case .regular: action = .file(mode: entry.permissions & 0o111 != 0 ? 0o755 : 0o644)
        case .symlink(let target):
            guard Self.symlinkStaysInside(target, parentDepth: mapped.count - 1) else {
                return .reject(.symlinkEscapes(target: String(decoding: target, as: UTF8.self)))
            }
            action = .symlink(target: target)
        default: return .reject(.specialFile("unexpected"))
        }
        return .accept(PlannedEntry(components: mapped, action: action, archivePath: entry.displayPath))
    }

    /// Checks bytes actually produced so far (a stream can lie about sizes, or not declare them).
    /// `consumedBytes`: compressed bytes read so far, the ratio's base when the archive's size is unknown (a source
    /// still growing).
    package func checkProduced(totalBytes: Int64, consumedBytes: Int64 = 0) -> EntryRule? {
        if totalBytes > limits.maxTotalBytes { return .totalBytesExceeded(limit: limits.maxTotalBytes) }
        return ratioViolation(totalBytes: totalBytes, base: archiveBytes ?? consumedBytes)
    }

    private func ratioViolation(totalBytes: Int64, base: Int64? = nil) -> EntryRule? {
        guard let archiveBytes = base ?? archiveBytes, totalBytes > limits.ratioAllowance else { return nil }
        let (limit, overflow) = max(archiveBytes, 1).multipliedReportingOverflow(by: limits.maxExpansionRatio)
        return !overflow && totalBytes > limit ? .expansionRatioExceeded(limit: limits.maxExpansionRatio) : nil
    }

    // MARK: Paths

    private static let documentsPath = [Array("Contents".utf8), Array("Resources".utf8), Array("Documents".utf8)]

    /// `Contents/Resources/Documents` or anything below it (relative to the docset root).
    static func isInDocuments(_ mapped: [[UInt8]]) -> Bool {
        mapped.count >= 3 && mapped[0] == documentsPath[0] && mapped[1] == documentsPath[1]
            && mapped[2] == documentsPath[2]
    }

    static let appleDoublePrefix = Array("._".utf8)
    static let macOSFolder = Array("__MACOSX".utf8)
    private static let docsetSuffix = Array(".docset".utf8)
    private static let slash = UInt8(ascii: "/")
    private static let dot = [UInt8(ascii: ".")]
    private static let dotDot = [UInt8(ascii: "."), UInt8(ascii: ".")]

    /// Splits an archive path into components: "." components and one trailing "/" are dropped; absolute paths,
    /// "..", NUL, empty components and oversized names, paths or depths are rejected.
    static func split(_ path: [UInt8], limits: InstallLimits) -> Result<[[UInt8]], EntryRule> {
        if path.contains(0) { return .failure(.nulByte) }
        if path.first == slash { return .failure(.absolutePath) }
        if path.count > limits.maxPathBytes { return .failure(.pathTooLong(limit: limits.maxPathBytes)) }
        var raw = path.split(separator: slash, omittingEmptySubsequences: false)
        if raw.count > 1, raw.last?.isEmpty == true { raw.removeLast() }
        var components: [[UInt8]] = []
        for part in raw {
            if part.isEmpty { return .failure(.emptyComponent) }
            if part.elementsEqual(dot) { continue }
            if part.elementsEqual(dotDot) { return .failure(.parentTraversal) }
            if part.count > limits.maxNameBytes { return .failure(.nameTooLong(limit: limits.maxNameBytes)) }
            components.append(Array(part))
        }
        if components.count > limits.maxDepth { return .failure(.tooDeep(limit: limits.maxDepth)) }
        return .success(components)
    }

    private static func isDocsetName(_ name: [UInt8]) -> Bool {
        name.count > docsetSuffix.count && name.suffix(docsetSuffix.count).elementsEqual(docsetSuffix)
    }

    private mutating func map(_ components: [[UInt8]]) -> Result<[[UInt8]], EntryRule> {
        switch layout {
        case .undecided:
            if Self.isDocsetName(components[0]) {
                layout = .folder(top: components[0], innerOpen: true)
                return map(components)
            }
            layout = .bare
            return .success(components)
        case .bare:
            return .success(components)
        case .folder(let top, let innerOpen):
            guard components[0] == top else { return .failure(.outsideDocsetFolder) }
            if components.count == 1 { return .success([]) }
            if innerOpen {
                if Self.isDocsetName(components[1]) {
                    layout = .nested(top: top, inner: components[1])
                    return .success(Array(components.dropFirst(2)))
                }
                layout = .folder(top: top, innerOpen: false)
            }
            return .success(Array(components.dropFirst()))
        case .nested(let top, let inner):
            guard components[0] == top else { return .failure(.outsideDocsetFolder) }
            if components.count == 1 { return .success([]) }
            guard components[1] == inner else { return .failure(.outsideDocsetFolder) }
            return .success(Array(components.dropFirst(2)))
        }
    }

    /// A link target is kept only when it is relative, its ".." components all come first and climb no higher than
    /// the link's own directory, and nothing after them climbs again. The link's ancestors are real directories
    /// (the writer never creates anything through a link), and every other kept link obeys the same rule, so
    /// resolving any chain of kept links only ever descends from a directory inside the docset.
    static func symlinkStaysInside(_ target: [UInt8], parentDepth: Int) -> Bool {
        if target.isEmpty || target.first == slash || target.contains(0) { return false }
        var climbing = true
        var climbs = 0
        for part in target.split(separator: slash) where !part.elementsEqual(dot) {
            if part.elementsEqual(dotDot) {
                guard climbing else { return false }
                climbs += 1
            } else {
                climbing = false
            }
        }
        return climbs <= parentDepth
    }
}

extension EntryPolicy {
    /// `evaluate` as extraction and the tarix walk apply it: the entry to create, nil to skip it, or `.rejected`
    /// naming the entry and the rule.
    mutating func admit(_ entry: ArchiveEntryMetadata) throws(InstallError) -> PlannedEntry? {
        switch evaluate(entry) {
        case .skip: return nil
        case .reject(let rule): throw .rejected(entry: entry.displayPath, rule: rule)
        case .accept(let accepted): return accepted
        }
    }
}
