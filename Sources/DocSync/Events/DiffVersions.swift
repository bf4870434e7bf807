internal import DocSyncSupport

/// Which two versions `docsync diff NAME [--from V] [--to V]` compares, from the change log's records: policy
/// without I/O (table-tested in `DiffVersionsTests`).
///
/// - Default: the docset's last change — its `from` (nil for a first install: everything is added) and its `to`
///   (the version installed now; an error when that change removed the docset).
/// - `--to V` alone: `from` is the version the change to V replaced; `--from V` alone: `to` is the current one.
/// - V is, in this order: a version folder the log names (`NAME@ID`, any docset's: a copy kept side by side
///   compares too), the `ID` part of one of NAME's, or a publisher version (`meta.json`'s) one of NAME's records
///   names — when several of NAME's version folders have it (the same version installed again with other bytes),
///   the error lists their IDs to choose from.
enum DiffVersions {
    /// One side of a record: the publisher's version and the version folder.
    struct Side: Sendable, Equatable {
        var version: String
        var folder: String
    }

    /// A change log record, as far as this policy cares.
    struct Record: Sendable, Equatable {
        var docset: String
        var from: Side?
        var to: Side?
    }

    static func resolve(docset: String, from: String?, to: String?, records: [Record]) -> Result<
        (from: Side?, to: Side), DocsetDiffError
    > {
        let mine = records.filter { $0.docset == docset }
        guard let last = mine.last else {
            let names = Array(Set(records.map(\.docset))).sorted()
            let known = names.isEmpty ? "it names none yet" : "it names " + names.joined(separator: ", ")
            return .failure(
                DocsetDiffError(
                    kind: .unknownDocset,
                    message: "the change log names no docset \(docset.escapingControlCharacters) (\(known))"))
        }
        var ownSides: [Side] = []
        for record in mine {
            for side in [record.from, record.to].compactMap({ $0 }) where !ownSides.contains(side) {
                ownSides.append(side)
            }
        }
        func lookup(_ text: String) -> Result<Side, DocsetDiffError> {
            for record in records {
                if let side = [record.from, record.to].compactMap({ $0 }).first(where: { $0.folder == text }) {
                    return .success(side)
                }
            }
            if let side = ownSides.first(where: { $0.folder == "\(docset)@\(text)" }) { return .success(side) }
            let matches = ownSides.filter { $0.version == text }
            if matches.count == 1 { return .success(matches[0]) }
            let subject = "version \(text.escapingControlCharacters) of \(docset.escapingControlCharacters)"
            if matches.count > 1 {
                let ids = matches.map(\.folder).joined(separator: ", ")
                return .failure(
                    DocsetDiffError(
                        kind: .ambiguousVersion,
                        message: "\(subject) names several version folders (the same version installed with other "
                            + "bytes): give one of \(ids.escapingControlCharacters) instead"))
            }
            let known = ownSides.map { "\($0.version.isEmpty ? "-" : $0.version) (\($0.folder))" }
            return .failure(
                DocsetDiffError(
                    kind: .unknownVersion,
                    message: "the change log does not name \(subject) (never installed, or its changes are older "
                        + "than [changes] keep); it names: \(known.joined(separator: ", ").escapingControlCharacters)"))
        }
        let newer: Side
        if let to {
            switch lookup(to) {
            case .success(let side): newer = side
            case .failure(let error): return .failure(error)
            }
        } else if let current = last.to {
            newer = current
        } else {
            return .failure(
                DocsetDiffError(
                    kind: .notInstalled,
                    message: "\(docset.escapingControlCharacters) is not installed (its last change removed it): "
                        + "give the versions to compare with --from and --to"))
        }
        if let from {
            switch lookup(from) {
            case .success(let side): return .success((side, newer))
            case .failure(let error): return .failure(error)
            }
        }
        if to == nil { return .success((last.from, newer)) }
        let replaced = records.last { $0.to?.folder == newer.folder }?.from
        return .success((replaced, newer))
    }
}
