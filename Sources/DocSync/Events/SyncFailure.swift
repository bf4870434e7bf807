internal import DocSyncHTTP

/// Why one docset or feed failed in a sync, as a value: what kind of failure (``code``), whether a later sync can
/// succeed without anyone changing anything (``isTransient``), the URL and HTTP status involved, and a message for
/// people. Its JSON is `{"code", "is_transient", "url", "http_status", "message"}`, and for a `hook` failure also
/// `exit_status`, `signal`, `timed_out` and `stderr_tail`.
public struct SyncFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kind of failure. New kinds may be added: compare with the static members, and keep a default branch.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(from decoder: any Decoder) throws {
            rawValue = try decoder.singleValueContainer().decode(String.self)
        }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
        public var description: String { rawValue }

        /// The server answered with a status that ends the transfer (e.g. 404 on every mirror).
        public static let http = Code(rawValue: "http")
        /// The transfer could not complete: DNS, connect, TLS, timeout, stall, dropped connection.
        public static let transport = Code(rawValue: "transport")
        /// The server's answer broke the protocol (bad Content-Range, encoded body, changing representation).
        public static let badResponse = Code(rawValue: "bad_response")
        /// The archive's SHA-256 or length is not the one the feed promised.
        public static let verification = Code(rawValue: "verification")
        /// The feed is not a feed docsync can read (not XML, wrong root, missing element, over a limit).
        public static let invalidFeed = Code(rawValue: "invalid_feed")
        /// The archive was refused: an unsafe entry, an unreadable or corrupt archive, or not a docset.
        public static let invalidArchive = Code(rawValue: "invalid_archive")
        /// Not enough free space or inodes.
        public static let insufficientSpace = Code(rawValue: "insufficient_space")
        /// The archive is larger than `[install] max_archive_size`.
        public static let tooLarge = Code(rawValue: "too_large")
        /// A local file-system failure (permissions, EIO, a file that cannot be read).
        public static let io = Code(rawValue: "io")
        /// The feed offers something that cannot be installed as asked (e.g. an unsafe or duplicate name).
        public static let invalidRequest = Code(rawValue: "invalid_request")
        /// Another process holds the partial download.
        public static let locked = Code(rawValue: "locked")
        /// ``SyncEngine/remove(name:)`` of a docset that is not installed.
        public static let notInstalled = Code(rawValue: "not_installed")
        /// `<root>/<name>.docset` is a folder docsync did not install: reported and left alone (see
        /// `install.replace_foreign`).
        public static let foreignFolder = Code(rawValue: "foreign_folder")
        /// The installed version of a docset the sync leaves unchanged lacks a file every reader needs, or has one
        /// of another size (`Contents/Info.plist`, the index, `Documents`, `meta.json`); `sync --repair` reinstalls
        /// it.
        public static let damaged = Code(rawValue: "damaged")
        /// The sync was cancelled.
        public static let cancelled = Code(rawValue: "cancelled")
        /// The configured `post_install` command failed (the docset itself is installed).
        public static let hook = Code(rawValue: "hook")
        /// Anything else (the message says what).
        public static let other = Code(rawValue: "other")
    }

    /// What kind of failure this is.
    public var code: Code
    /// ``code``, by the name every public error of the library uses: `failure.kind == .http`.
    public var kind: Code { code }
    /// True when trying again later may succeed without changes (network trouble, a full disk, a busy lock).
    public var isTransient: Bool
    /// The URL involved (the archive or feed that failed), when there is one.
    public var url: String?
    /// The final HTTP status, when the server answered with one that ended the transfer.
    public var httpStatus: Int?
    /// What happened, for people; never repeats ``url`` or ``httpStatus``.
    public var message: String
    /// A `hook` failure's exit status, when the command exited on its own.
    public var exitStatus: Int32?
    /// A `hook` failure's ending signal, when one ended it (SIGTERM / SIGKILL after a timeout or a cancel).
    public var signal: Int32?
    /// A `hook` failure ran past `post_install_timeout` and its process group was stopped.
    public var timedOut: Bool?
    /// A `hook` failure's last standard error lines (at most 10, control characters escaped).
    public var stderrTail: [String]?

    /// Creates a failure value.
    public init(code: Code, isTransient: Bool = false, url: String? = nil, httpStatus: Int? = nil, message: String) {
        self.code = code
        self.isTransient = isTransient
        self.url = url
        self.httpStatus = httpStatus
        self.message = message
    }

    /// `url: HTTP status: message`, leaving out what is absent.
    public var description: String { RequestFailureText.line(url: url, status: httpStatus, message: message) }

    enum CodingKeys: String, CodingKey {
        case code, url, message, signal
        case isTransient = "is_transient"
        case httpStatus = "http_status"
        case exitStatus = "exit_status"
        case timedOut = "timed_out"
        case stderrTail = "stderr_tail"
    }
}
