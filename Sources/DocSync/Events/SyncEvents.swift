/// The events of one sync, in order, ending after ``SyncEvent/summary(_:)``; iterating throws only a ``SyncError``,
/// and only when the run could not start. Returned by ``SyncEngine/sync(_:)``; iterate it once. Cancelling the
/// consuming task (or dropping the iterator) stops the run gracefully; once cancelled, the iterator returns (nil, or
/// the run's error) only after the run has stopped and released its lock, so a cancelled consumer never leaves a
/// run behind that may still install.
public struct SyncEvents: AsyncSequence, Sendable {
    /// Each step of the run.
    public typealias Element = SyncEvent
    /// The one error type: why the run could not start.
    public typealias Failure = SyncError

    let base: AsyncThrowingStream<SyncEvent, any Error>
    /// The run producing the events: awaited when the stream ends, so that the iterator outlives it.
    let run: Task<Void, Never>

    /// The iterator over the run's events.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), run: run) }

    /// Iterates a sync's events; throws ``SyncError``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<SyncEvent, any Error>.AsyncIterator
        let run: Task<Void, Never>

        /// The next event, nil after the summary.
        public mutating func next() async throws(SyncError) -> SyncEvent? {
            do {
                guard let event = try await base.next() else {
                    await run.value  // a cancelled consumer: the run stops (checkpointing) and unlocks first
                    return nil
                }
                return event
            } catch {
                await run.value
                throw SyncError(error)
            }
        }

        /// The next event, nil after the summary (isolated to the caller's actor).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SyncError) -> SyncEvent? {
            do {
                guard let event = try await base.next(isolation: actor) else {
                    await run.value
                    return nil
                }
                return event
            } catch {
                await run.value
                throw SyncError(error)
            }
        }
    }
}
