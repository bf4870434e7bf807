import DocSyncSupport

extension SyncEvent {
    /// This event with `transform` applied to every piece of text from outside (feed URLs, names, versions, archive
    /// URLs, reasons). The engine emits events through `redactingCredentials`; printers escape control characters.
    public func mappingText(_ transform: (String) -> String) -> SyncEvent {
        switch self {
        case .feedChecked(let feed, let source, let docsets):
            .feedChecked(feed: transform(feed), source: source, docsets: docsets)
        case .feedFailed(let feed, let reason): .feedFailed(feed: transform(feed), reason: transform(reason))
        case .feedWarning(let feed, let message): .feedWarning(feed: transform(feed), message: transform(message))
        case .planned(let plan): .planned(SyncPlan(actions: plan.actions.map { $0.mappingText(transform) }))
        case .progress(let progress): .progress(progress.renamed(transform(progress.name)))
        case .installed(let report): .installed(report.mappingText(transform))
        case .updated(let report, let from): .updated(report.mappingText(transform), from: transform(from))
        case .unchanged(let name, let version): .unchanged(name: transform(name), version: transform(version))
        case .removed(let name): .removed(name: transform(name))
        case .orphaned(let name): .orphaned(name: transform(name))
        case .skipped(let name, let reason): .skipped(name: transform(name), reason: transform(reason))
        case .failed(let name, let reason): .failed(name: transform(name), reason: transform(reason))
        case .hookFailed(let failure): .hookFailed(failure.mappingText(transform))
        case .warning(let name, let message): .warning(name: transform(name), message: transform(message))
        case .summary: self
        }
    }

    /// Credentials taken out of every URL in the event (README, Security).
    public var redactingCredentials: SyncEvent { mappingText(\.redactingCredentials) }

    /// Control characters escaped in every piece of untrusted text, for a terminal or a log.
    public var escapingControlCharacters: SyncEvent { mappingText(\.escapingControlCharacters) }
}

extension HookFailure {
    func mappingText(_ transform: (String) -> String) -> HookFailure {
        var copy = self
        copy.name = transform(name)
        copy.startError = startError.map(transform)
        copy.standardError = standardError.map(transform)
        return copy
    }
}

extension DocsetProgress {
    func renamed(_ name: String) -> DocsetProgress {
        var copy = self
        copy.name = name
        return copy
    }
}

extension DocsetReport {
    func mappingText(_ transform: (String) -> String) -> DocsetReport {
        var copy = self
        copy.name = transform(name)
        copy.version = transform(version)
        copy.identifier = identifier.map(transform)
        return copy
    }
}

extension SyncPlan.Action {
    func mappingText(_ transform: (String) -> String) -> SyncPlan.Action {
        switch self {
        case .install(let c): .install(c.mappingText(transform))
        case .update(let c, let from): .update(c.mappingText(transform), from: from.mappingText(transform))
        case .unchanged(let c, let installed):
            .unchanged(c.mappingText(transform), installed: installed.mappingText(transform))
        case .orphan(let installed, let prune): .orphan(installed.mappingText(transform), prune: prune)
        case .skipped(let name, let feed, let reason):
            .skipped(name: transform(name), feed: transform(feed), reason: transform(reason))
        }
    }
}

extension DocsetCandidate {
    func mappingText(_ transform: (String) -> String) -> DocsetCandidate {
        var copy = self
        copy.name = transform(name)
        copy.title = transform(title)
        copy.identifier = identifier.map(transform)
        copy.version = DocsetVersion(version: transform(version.version), revision: transform(version.revision))
        copy.archives = archives.map(transform)
        copy.feed = transform(feed)
        return copy
    }
}

extension InstalledState {
    func mappingText(_ transform: (String) -> String) -> InstalledState {
        var copy = self
        copy.name = transform(name)
        copy.identifier = identifier.map(transform)
        copy.feed = feed.map(transform)
        return copy
    }
}
