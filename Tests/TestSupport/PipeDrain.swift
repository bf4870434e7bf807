import DocSyncSupport
import Foundation

/// Reads a child's standard output and standard error to their ends at the same time: reading one pipe to its end
/// before the other deadlocks once the child fills the second pipe's buffer (64 KiB) and blocks writing to it.
enum PipeDrain {
    /// Reads `errors` on a worker thread while this thread reads `output`; returns both when both ended.
    static func readBoth(_ output: Pipe?, _ errors: Pipe?) -> (output: Data, errors: Data) {
        guard let errors else { return (output?.fileHandleForReading.readDataToEndOfFile() ?? Data(), Data()) }
        let box = ErrorsBox()
        WorkerThread.start(name: "test-stderr") {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            box.lock.withLock {
                box.data = data
                box.lock.broadcast()
            }
        }
        let out = output?.fileHandleForReading.readDataToEndOfFile() ?? Data()
        let err = box.lock.withLock {
            while box.data == nil { box.lock.wait() }
            return box.data!
        }
        return (out, err)
    }

    /// `@unchecked Sendable`: `data` is only read or written with `lock` held.
    private final class ErrorsBox: @unchecked Sendable {
        let lock = ConditionLock()
        var data: Data?
    }
}
