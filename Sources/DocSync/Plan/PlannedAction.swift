/// One line of a sync's plan (``SyncEvent/planned(_:)``): what the sync is about to do with one docset.
public struct PlannedAction: Sendable, Hashable, Codable {
    /// What will happen.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Not installed yet: download and install.
        case install
        /// Installed, and the feed offers another version: download and replace.
        case update
        /// Installed and current: nothing to do.
        case unchanged
        /// No feed offers it any more and `prune` is on: remove it.
        case remove
        /// No feed offers it any more; kept because `prune` is off.
        case orphan
        /// The feed offers something that cannot be planned (``reason`` says why).
        case skip
    }

    /// What will happen.
    public var action: Kind
    /// The docset's folder name without `.docset`.
    public var name: String
    /// The version that will be (or stays) installed; nil for `remove`, `orphan` and `skip`.
    public var version: String?
    /// The installed version an `update` replaces.
    public var from: String?
    /// The archive URL an `install` or `update` downloads first (mirrors follow it on failure).
    public var url: String?
    /// Why a `skip`.
    public var reason: String?

    /// Creates a plan line.
    public init(
        action: Kind, name: String, version: String? = nil, from: String? = nil, url: String? = nil,
        reason: String? = nil
    ) {
        self.action = action
        self.name = name
        self.version = version
        self.from = from
        self.url = url
        self.reason = reason
    }

    package init(_ action: SyncPlan.Action) {
        switch action {
        case .install(let c):
            self.init(action: .install, name: c.name, version: c.version.description, url: c.archives.first)
        case .update(let c, let from):
            self.init(
                action: .update, name: c.name, version: c.version.description, from: from.plannedVersion.description,
                url: c.archives.first)
        case .unchanged(let c, _): self.init(action: .unchanged, name: c.name, version: c.version.description)
        case .orphan(let installed, let prune): self.init(action: prune ? .remove : .orphan, name: installed.name)
        case .skipped(let name, _, let reason): self.init(action: .skip, name: name, reason: reason)
        }
    }
}
