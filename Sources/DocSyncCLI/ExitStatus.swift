import ArgumentParser

/// Exit statuses shared by every command (sysexits.h where one fits).
public enum ExitStatus {
    /// Bad input data: a feed that does not parse, an archive that is rejected.
    public static let dataError = ExitCode(65)
    /// A remote or transport failure that may succeed later.
    public static let unavailable = ExitCode(69)
    /// A local I/O failure.
    public static let ioError = ExitCode(74)
    /// Some docsets (or feeds) failed while the others synced.
    public static let partialFailure = ExitCode(3)
    /// Another sync holds the lock (retry later, or use --wait).
    public static let busy = ExitCode(75)
    /// The configuration file is missing or invalid.
    public static let configError = ExitCode(78)
}
