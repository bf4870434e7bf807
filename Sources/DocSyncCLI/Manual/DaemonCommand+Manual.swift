// The reference of `docsync daemon` (its man page: generate-manual reads the discussion).
extension DaemonCommand {
    static let manual = #"""
        ```sh
        docsync daemon --interval 6h --jitter 10m
        ```
        Syncs now, then every interval (plus a random delay up to `--jitter`): the library's `SyncService`, in a
        `ServiceGroup`. It logs (standard error) when it starts, each cycle's result (`sync done: 1 installed, … (2.3
        s)`, `next sync in 6 h`) and when it stops. SIGTERM / SIGINT stop it gracefully (swift-service-lifecycle): the
        download in flight is checkpointed and resumes next time; an install in flight either completes or never shows.
        For systemd, see **Install as a service** below; the post-install hook (`post_install` in the config) gets
        `DOCSYNC_NAME`, `DOCSYNC_VERSION`, `DOCSYNC_IDENTIFIER`, `DOCSYNC_PATH` and `DOCSYNC_INDEX`.

        An `--interval` under 1 minute is refused (exit 64).

        **Post-install hook.** It runs through `/bin/sh -c` in a process group of its own. A non-zero exit, a signal, or
        running past `post_install_timeout` (default `10m`; then the whole group gets SIGTERM, and SIGKILL 5 s later)
        makes that docset a failure: a `hook-failed` event whose `failure` (code `hook`) has `exit_status` (or `signal`,
        `timed_out`) and `stderr_tail` (its last 10 lines), counted in the summary's `failed`, exit 3. The docset stays
        installed.

        INSTALL AS A SERVICE

        ```sh
        # system service (run as root)
        scripts/install
        # a desktop user's own Zeal docsets
        scripts/install --user
        # (add --user for the user install) removes exactly what was installed
        scripts/install --uninstall
        # stage for packaging: nothing live is touched
        DESTDIR=/tmp/stage scripts/install --prefix /usr
        ```
        `scripts/build-release` builds the shipped binaries (static Swift runtime, stripped: no symbol table or debug
        info; ~24 MiB peak for a 500 MB download) and prints the path of the first, `.build-release/release/docsync`,
        with `docsync-serve` (the HTTP front `docsync serve` execs) beside it; `scripts/install` builds them unless
        `--binary FILE` is given (`docsync-serve` is taken from the same folder). The system install puts them in
        `/usr/local/bin/` (`--prefix`), the units `config/docsync.service` (oneshot `docsync sync --wait` as user
        `docsync`, sandboxed to `ReadWritePaths=/var/lib/docsync` and the network: `systemd-analyze security` exposure
        1.4 OK) and `config/docsync.timer` (every 6 h, `Persistent=true`, `RandomizedDelaySec`) in
        `/etc/systemd/system`, the `docsync` user (`config/docsync.sysusers` as `/usr/lib/sysusers.d/docsync.conf`), its
        folders (`config/docsync.tmpfiles`: `/var/lib/docsync/{docsets,staging,state}`) and `/etc/docsync/docsync.toml`
        with those paths (kept if present). `--user` installs `~/.local/bin/docsync` (and `docsync-serve`), a user
        service + timer (`config/docsync-user.*`) in `~/.config/systemd/user` and `~/.config/docsync/docsync.toml` (root
        `~/.local/share/Zeal/Zeal/docsets`, which the system unit's `ProtectHome=` forbids). Then add `[[feed]]` tables
        and `systemctl [--user] enable --now docsync.timer`. `--uninstall` keeps a config you edited and every docset,
        staging and state folder.
        """#
}
