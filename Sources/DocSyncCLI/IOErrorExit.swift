/// Runs `body`; an error it throws becomes one line on standard error (`line` of the error's text) and exit status
/// 74 (`ExitStatus.ioError`). Lets a command keep the result's type inferred from the library call.
func exitingOnIOError<Value>(
    _ line: (String) -> String, _ body: () async throws -> Value
) async throws -> Value {
    do {
        return try await body()
    } catch {
        printError(line("\(error)"))
        throw ExitStatus.ioError
    }
}
