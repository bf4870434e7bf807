internal import DocSyncSupport

extension SyncEvent {
    /// This event with `transform` applied to every piece of text from outside (feed URLs, names, versions, archive
    /// URLs, messages). The engine emits events through `redactingCredentials`; printers escape control characters.
    package func mappingText(_ transform: (String) -> String) -> SyncEvent {
        switch self {
        case .feedChecked(let feed, let source, let docsets):
            .feedChecked(feed: transform(feed), source: source, docsets: docsets)
        case .feedFailed(let feed, let failure):
            .feedFailed(feed: transform(feed), failure: failure.mappingText(transform))
        case .feedWarning(let feed, let message): .feedWarning(feed: transform(feed), message: transform(message))
        case .planned(let actions): .planned(actions.map { $0.mappingText(transform) })
        case .progress(let progress): .progress(progress.renamed(transform(progress.name)))
        case .installed(let docset): .installed(docset.mappingText(transform))
        case .updated(let docset, let from): .updated(docset.mappingText(transform), from: transform(from))
        case .unchanged(let name, let version): .unchanged(name: transform(name), version: transform(version))
        case .removed(let name): .removed(name: transform(name))
        case .orphaned(let name): .orphaned(name: transform(name))
        case .skipped(let name, let reason): .skipped(name: transform(name), reason: transform(reason))
        case .failed(let name, let failure): .failed(name: transform(name), failure: failure.mappingText(transform))
        case .hookFailed(let name, let failure):
            .hookFailed(name: transform(name), failure: failure.mappingText(transform))
        case .warning(let name, let message): .warning(name: transform(name), message: transform(message))
        case .indexed(let name, let version, let entries):
            .indexed(name: transform(name), version: transform(version), entries: entries)
        case .indexFailed(let name, let reason): .indexFailed(name: transform(name), reason: transform(reason))
        case .alternateFault(let name, let url, let reason, let message):
            .alternateFault(name: transform(name), url: transform(url), reason: reason, message: transform(message))
        case .summary: self
        }
    }

    /// Credentials taken out of every URL in the event (README, Security).
    package var redactingCredentials: SyncEvent { mappingText(\.redactingCredentials) }

    /// Control characters escaped in every piece of untrusted text, for a terminal or a log.
    package var escapingControlCharacters: SyncEvent { mappingText(\.escapingControlCharacters) }
}

extension DocsetProgress {
    func renamed(_ name: String) -> DocsetProgress {
        var copy = self
        copy.name = name
        return copy
    }
}

extension InstalledDocset {
    /// The texts that come from feeds and archives; `path` and `index_path` are docsync's own.
    func mappingText(_ transform: (String) -> String) -> InstalledDocset {
        var copy = self
        copy.name = transform(name)
        copy.title = transform(title)
        copy.version = version.map(transform)
        copy.revision = revision.map(transform)
        copy.identifier = identifier.map(transform)
        copy.feedURL = feedURL.map(transform)
        copy.sourceURL = sourceURL.map(transform)
        return copy
    }
}

extension SyncFailure {
    func mappingText(_ transform: (String) -> String) -> SyncFailure {
        var copy = self
        copy.url = url.map(transform)
        copy.message = transform(message)
        copy.stderrTail = stderrTail.map { $0.map(transform) }
        return copy
    }
}

extension PlannedAction {
    func mappingText(_ transform: (String) -> String) -> PlannedAction {
        var copy = self
        copy.name = transform(name)
        copy.version = version.map(transform)
        copy.from = from.map(transform)
        copy.url = url.map(transform)
        copy.reason = reason.map(transform)
        return copy
    }
}
