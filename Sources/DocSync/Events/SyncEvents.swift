/// The events of one sync, in order, ending after ``SyncEvent/summary(_:)``; iterating throws only a ``SyncError``,
/// and only when the run could not start. Returned by ``SyncEngine/sync(_:)``; iterate it once. Cancelling the
/// consuming task (or dropping the iterator) stops the run gracefully.
public struct SyncEvents: AsyncSequence, Sendable {
    /// Each step of the run.
    public typealias Element = SyncEvent
    /// The one error type: why the run could not start.
    public typealias Failure = SyncError

    let base: AsyncThrowingStream<SyncEvent, any Error>

    /// The iterator over the run's events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }

    /// Iterates a sync's events; throws ``SyncError``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<SyncEvent, any Error>.AsyncIterator

        /// The next event, nil after the summary.
        public mutating func next() async throws(SyncError) -> SyncEvent? {
            do {
                return try await base.next()
            } catch {
                throw SyncError(error)
            }
        }

        /// The next event, nil after the summary (isolated to the caller's actor).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SyncError) -> SyncEvent? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw SyncError(error)
            }
        }
    }
}
