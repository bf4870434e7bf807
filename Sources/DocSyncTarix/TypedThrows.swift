/// Runs `body`, whose only errors are `TarixError`s, under typed throws (`Array.withUnsafeBytes` and friends
/// rethrow untyped errors).
func typed<T>(_ body: () throws -> T) throws(TarixError) -> T {
    do {
        return try body()
    } catch let error as TarixError {
        throw error
    } catch {
        throw .io("docsync", "unexpected error: \(error)")
    }
}
