import ArgumentParser

/// Exit statuses shared by every command (sysexits.h where one fits). `table` is the documented list (README and
/// `docsync help`); every known condition has its status here, and 1 is never used.
package enum ExitStatus {
    /// Some docsets (or feeds, or post-install hooks) failed while the others synced.
    package static let partialFailure = ExitCode(3)
    /// A bad command line, or a docset name (`--only`, `remove`) that matches nothing.
    package static let usage = ExitCode(64)
    /// Bad input data: a feed that does not parse, an archive that is rejected, a failed verification.
    package static let dataError = ExitCode(65)
    /// A remote or transport failure that may succeed later.
    package static let unavailable = ExitCode(69)
    /// An error docsync did not expect: a bug, please report it.
    package static let internalError = ExitCode(70)
    /// A local I/O failure.
    package static let ioError = ExitCode(74)
    /// Another sync holds the lock (retry later, or use --wait).
    package static let busy = ExitCode(75)
    /// The configuration file is missing or invalid, or root / staging / state cannot be used.
    package static let configError = ExitCode(78)
    /// Stopped by SIGINT / SIGTERM (what was downloaded is kept; the next sync resumes).
    package static let interrupted = ExitCode(130)

    /// The exit-status table printed by `docsync help` (and copied in README.md).
    package static let table = """
        Exit status:
          0    everything succeeded
          3    some docsets, feeds or post-install hooks failed, the others synced; sync, verify: a docset is damaged
          64   bad command line, or a docset name (--only, remove) that matches nothing
          65   bad data: a feed that does not parse, an archive rejected, a checksum mismatch
          69   a server or the network is unavailable (try later)
          70   internal error (a bug: please report it)
          74   local I/O error (the durable part of a download is kept)
          75   another sync holds the lock (use --wait)
          78   configuration: no or invalid config file; root, staging or state unusable
          130  interrupted by SIGINT / SIGTERM (the next sync resumes)
        """
}
