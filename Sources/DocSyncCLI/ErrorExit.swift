import ArgumentParser
import DocSync
import DocSyncSupport
import Foundation

/// What happens to an error that escapes a command: one `docsync: …` line on standard error (through
/// `UserText`, never a Foundation dump) and its exit status from the documented table (`ExitStatus`), never 1.
enum ErrorExit {
    /// The exit status for `error`; errors of unknown types are internal errors (70).
    static func code(for error: any Error) -> ExitCode {
        switch error {
        case let code as ExitCode: code
        case is DocSyncConfigurationError, is Preflight.Failure, is ValueSyntax.UnsetVariable, is LockFile.Failure:
            ExitStatus.configError
        case is CatalogLoader.Failure: ExitStatus.unavailable
        case is UnknownDocsetError: ExitStatus.usage
        case let lock as SyncExclusionError: lock == .busy ? ExitStatus.busy : ExitStatus.ioError
        case let failure as SyncFailure: code(for: failure)
        case let sync as SyncError: code(for: sync)
        case is DecodingError: ExitStatus.dataError
        case is FeedRefresher.Failure: ExitStatus.unavailable
        case is CocoaError, is POSIXError: ExitStatus.ioError
        case is CancellationError: ExitStatus.interrupted
        default:
            if let stage = StageErrorClass(error) {
                code(for: stage)
            } else {
                type(of: error) is NSError.Type ? ExitStatus.ioError : ExitStatus.internalError
            }
        }
    }

    /// An error a stage module threw (a download, feed, HTTP, install, catalogue, index or mirror error), by its
    /// class.
    static func code(for stage: StageErrorClass) -> ExitCode {
        switch stage {
        case .dataError: ExitStatus.dataError
        case .unavailable: ExitStatus.unavailable
        case .ioError: ExitStatus.ioError
        case .invalidRequest: ExitCode.validationFailure
        }
    }

    /// A ``SyncFailure`` (thrown by `remove`, `sync` when the run cannot start) by its code.
    static func code(for failure: SyncFailure) -> ExitCode {
        switch failure.code {
        case .http, .transport, .badResponse: ExitStatus.unavailable
        case .verification, .invalidFeed, .invalidArchive, .invalidRequest, .tooLarge: ExitStatus.dataError
        case .insufficientSpace, .io, .foreignFolder: ExitStatus.ioError
        case .locked: ExitStatus.busy
        case .notInstalled: ExitStatus.usage
        case .cancelled: ExitStatus.interrupted
        case .hook: ExitStatus.partialFailure
        default: ExitStatus.internalError
        }
    }

    /// A ``SyncError`` (thrown by `sync` when the run cannot start) by its details.
    static func code(for error: SyncError) -> ExitCode {
        if let exclusion = error.exclusion { return code(for: exclusion) }
        if let preflight = error.preflightFailure { return code(for: preflight) }
        if let unknown = error.unknownDocsets { return code(for: unknown) }
        if let failure = error.failure { return code(for: failure) }
        switch error {
        case .configuration: return ExitStatus.configError
        case .cancelled: return ExitStatus.interrupted
        default: return ExitStatus.internalError
        }
    }

    /// Errors ArgumentParser prints and maps itself (usage errors, --help, exit codes thrown on purpose).
    /// (ArgumentParser gives every other error status 1.)
    static func isArgumentParsers(_ error: any Error) -> Bool {
        error is ExitCode || error is CleanExit || DocSyncCommand.exitCode(for: error) != .failure
    }

    /// Prints `error` and returns its exit status.
    static func report(_ error: any Error) -> ExitCode {
        let code = code(for: error)
        let text = UserText.describe(error)
        printError(code == ExitStatus.internalError ? "docsync: internal error: \(text) (please report)" : "docsync: \(text)")
        return code
    }
}
