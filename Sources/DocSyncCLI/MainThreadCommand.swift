/// A command that can run to its end on the main thread, synchronously: `runMain` runs it before starting Swift's
/// concurrency pool, so the process starts no thread (`docsync changes --json`, whose start-up is most of its cost).
protocol MainThreadCommand {
    /// Runs the command when its options allow it without the concurrency pool; false when they do not (it then
    /// runs as usual, `run()` on the pool).
    func runOnMainThread() throws -> Bool
}
