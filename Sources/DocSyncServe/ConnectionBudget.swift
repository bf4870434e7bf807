/// How many connections `serve` keeps open: `[serve] max_connections`, lowered to fit the open-file limit.
///
/// Past ``evictAbove`` open connections each new one closes the connection idle longest (``IdleConnections``);
/// at ``acceptBelow`` accepting pauses and new connections wait in the listen backlog (Hummingbird's
/// `MaximumAvailableConnections`), which only connections all busy with requests can reach. Idle connections are
/// cheap (a socket, a few KiB of NIO state, no buffers), so the default is high: an attacker holding thousands of
/// silent or trickling connections neither fills the server nor pushes a new client into the backlog.
struct ConnectionBudget: Equatable {
    /// More connections open than this: the one idle longest is closed for each new one.
    let evictAbove: Int
    /// Accepting pauses while this many are open.
    let acceptBelow: Int

    /// Descriptors kept for everything else: indexes, pages being read, the access log, the listener.
    static let reserved = 128

    /// The budget for `configured` (`max_connections`) under an open-file limit of `descriptors`, of which
    /// `remembered` are kept for pages held open (``PageHeads``) and ``reserved`` for the rest.
    static func of(configured: Int, descriptors: Int, remembered: Int) -> ConnectionBudget {
        let available = max(16, descriptors - remembered - reserved)
        let bound = max(1, min(configured, available))
        return ConnectionBudget(evictAbove: max(1, bound - bound / 16), acceptBelow: bound)
    }
}
