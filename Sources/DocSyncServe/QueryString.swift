import Synchronization

/// An `application/x-www-form-urlencoded` query (`+` is a space, `%XX` decoded), as HTML forms send it. Malformed
/// escapes are kept as they are; bounded to 256 parameters.
struct QueryString: Sendable {
    private var pairs: [(String, String)] = []

    init(_ query: String) {
        for part in query.split(separator: "&").prefix(256) {
            let equals = part.firstIndex(of: "=")
            let key = equals.map { part[..<$0] } ?? part
            let value = equals.map { part[part.index(after: $0)...] } ?? ""
            pairs.append((Self.decode(key), Self.decode(value)))
        }
    }

    /// The first value of `key`.
    subscript(_ key: String) -> String? { pairs.first { $0.0 == key }?.1 }

    /// Every non-empty value of `key`, in order.
    func all(_ key: String) -> [String] { pairs.filter { $0.0 == key && !$0.1.isEmpty }.map(\.1) }

    static func decode(_ text: Substring) -> String {
        let spaced = String(text).replacingPlus
        return PagePath.percentDecoded(Substring(spaced)) ?? spaced
    }
}

extension String {
    fileprivate var replacingPlus: String {
        guard contains("+") else { return self }
        return String(map { $0 == "+" ? " " : $0 })
    }
}

/// Runs work with a deadline: its answer, or nil when `timeout` passed first (the work is cancelled; a page read
/// already on its thread finishes there and is dropped).
enum Deadline {
    static func run<T: Sendable>(_ timeout: Duration, _ work: @escaping @Sendable () async -> T) async -> T? {
        let slot = Slot<T>()
        return await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
            slot.set(continuation)
            let worker = Task {
                let value = await work()
                slot.resume(value)
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if slot.resume(nil) { worker.cancel() }
            }
            slot.onFinish { timer.cancel() }
        }
    }
}

/// The one continuation of a ``Deadline``: resumed once, by whichever side comes first.
private final class Slot<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T?, Never>?
        var finished = false
        var finish: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<T?, Never>) { state.withLock { $0.continuation = continuation } }

    func onFinish(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.finish = action
            return false
        }
        if runNow { action() }
    }

    @discardableResult
    func resume(_ value: T?) -> Bool {
        let (continuation, action) = state.withLock { state in
            defer {
                state.continuation = nil
                state.finished = true
                state.finish = nil
            }
            return (state.continuation, state.finish)
        }
        guard let continuation else { return false }
        continuation.resume(returning: value)
        action?()
        return true
    }
}
