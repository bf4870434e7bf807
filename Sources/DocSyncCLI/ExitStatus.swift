import ArgumentParser

/// Exit statuses shared by every command (sysexits.h where one fits).
public enum ExitStatus {
    /// Bad input data: a feed that does not parse, an archive that is rejected.
    public static let dataError = ExitCode(65)
    /// A remote or transport failure that may succeed later.
    public static let unavailable = ExitCode(69)
    /// A local I/O failure.
    public static let ioError = ExitCode(74)
}
