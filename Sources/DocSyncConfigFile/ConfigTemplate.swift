import DocSync
/// The documented configuration, `config/docsync.toml` verbatim (a test keeps the two identical): what `docsync
/// init` writes, with `root` set for this machine.
enum ConfigTemplate {
    static let text = #"""
# docsync configuration — every key, with its default.
#
# Found, when --config is not given, at the first of: $DOCSYNC_CONFIG, $XDG_CONFIG_HOME/docsync/docsync.toml
# (~/.config/docsync/docsync.toml), $XDG_CONFIG_DIRS/docsync/docsync.toml (/etc/xdg/...), /etc/docsync/docsync.toml.
# Paths may use ~ and $VARIABLES; relative paths are relative to this file's folder. Unknown keys are errors.

# Where docsets are installed as <NAME>.docset (Zeal's docset folder by default).
root = "~/.local/share/Zeal/Zeal/docsets"

# Partial downloads and their journals (resumed after any interruption).
staging = "~/.cache/docsync/staging"

# Feed cache (ETag / Last-Modified and the last body of each feed), last results, the sync lock.
state = "~/.local/state/docsync"

# Remove installed docsets that no configured feed lists any more. false: only report them.
prune = false

# A command run (through /bin/sh) after each docset is installed or updated, with DOCSYNC_NAME, DOCSYNC_VERSION,
# DOCSYNC_PATH (the installed version's folder) and DOCSYNC_INDEX (its docSet.dsidx) in the environment.
# It runs in a process group of its own. A non-zero exit, a signal or a timeout makes that docset a failure (the
# docset stays installed; the run exits 3) reported with the exit status and the end of its standard error.
# Empty: none.
post_install = ""

# How long post_install may run; after that its whole process group gets SIGTERM, then SIGKILL 5 s later.
post_install_timeout = "10m"

[network]
# Docsets downloaded and installed at once.
concurrency = 2
# At most this many requests to one host at once.
per_host = 2
# Transfers at once per download: a large file whose server proves it safe (strong validator, byte ranges) is
# fetched in segments over several connections and the feed's mirrors, within per_host. 1 disables splitting.
connections = 4
# Attempts per download for transient failures (dropped connection, 5xx, stall); progress resets the count.
retries = 8
# Time allowed to connect (TCP + TLS).
connect_timeout = "30s"
# Slower than min_speed for this long is a stall: the connection is dropped and the download resumed (a feed fails).
stall_timeout = "60s"
# The minimum speed, in bytes per second ("1K", "512"): a server trickling bytes below it is stalled, not waited on.
min_speed = "1K"
# Upper bound for one feed request, connect to last byte.
feed_timeout = "2m"
# Receive rate cap per download, in bytes per second ("0" unlimited; "512K", "5M").
rate_limit = "0"
# Proxy URL. Empty: the standard http_proxy / https_proxy / no_proxy environment variables.
proxy = ""
# PEM file of the certificate authorities trusted for https (a private CA). Empty: $CURL_CA_BUNDLE, else the system's.
ca_file = ""
# Refuse plain http for feeds, archives and redirects. false: HTTPS-First, as browsers do: an http:// archive URL is
# tried as https:// first and in plain http only when that fails (local hosts such as 127.0.0.1 or 192.168.x.x stay
# plain); a docset installed over plain http without a checksum from its feed is reported as a warning.
require_https = false
# Follow a redirect that changes the address scope — public to private (10/8, 172.16/12, 192.168/16, 127/8,
# 100.64/10, 0/8, ::1, fc00::/7) or private to public — or that leads from one private host to another. false:
# refused before connecting; a redirect within the public internet, or to the same private host, is followed.
# Checked on the address each connection uses; behind `proxy` only redirects to address literals can be judged.
allow_private_redirects = false
# Connect to link-local addresses (169.254/16 — cloud metadata at 169.254.169.254 —, fe80::/10, and the metadata
# endpoints 100.100.100.200 and fd00:ec2::254) and cloud metadata host names (metadata.google.internal, metadata,
# instance-data, …), as the first request or after a redirect. false: never connected to, for feeds, catalogues and
# archives alike.
allow_link_local = false

[install]
# How long a replaced version stays on disk for readers that still have it open, before it is deleted.
grace_period = "10m"
# Extract while the archive downloads; false downloads first, then installs.
streaming = true
# A <NAME>.docset folder docsync did not create (your own, or another tool's) is never replaced or deleted: the
# sync reports it and skips that docset. true: replace it, moving the folder aside into
# <root>/.docsync/foreign/<NAME>-<time> (kept until you delete it). `docsync adopt NAME` hands one folder over.
replace_foreign = false
# Partial downloads of versions no longer planned (the feed moved on) are deleted once untouched this long; those of a
# version older than the one installed are deleted at the end of the run that installs it, whatever their age.
partial_max_age = "7d"
# Largest archive downloaded ("4G", "500M"; "0" no limit): a longer length in the feed or in Content-Length is
# refused before downloading, and a body of unknown length is stopped (and its partial deleted) when it passes it.
# `docsync fetch` applies it too (its --max-size overrides it), as it does require_https.
max_archive_size = "4G"
# Bytes that must stay free in the staging folder's file system ("1G"; "0" none): checked before each request and
# again every 8 MiB written, so a download stops with a clear error instead of filling the disk.
min_free_space = "1G"
# How docsets keep their documents: "extracted" (every page a file: what released Zeal up to 0.8.x, dasht and file://
# browsers read) or "tarix" (Contents/Resources/tarix.tgz + tarixIndex.db, a handful of files per docset, read by
# Dash, Zeal's main branch and docsync itself; everything outside Documents/ is extracted as usual).
layout = "extracted"
# Per-docset exceptions, by folder name: layouts = { Go = "tarix", "C++" = "extracted" }
layouts = {}

[search]
# Index every page's visible text at install and sync (SQLite FTS5 in the state folder, beside the name index) for
# `docsync search --text`, serve's /api/text and `docsync mcp`. The docset is readable before its text index is done.
full_text = true
# Per-docset exceptions, by folder name: full_text_docsets = { Go = false }
full_text_docsets = {}

[changes]
# How long the root's change log (`docsync changes`) keeps a change; a reader whose cursor is older rescans.
keep = "365d"

[metrics]
# A Prometheus text-format file rewritten atomically after each run (node_exporter's textfile collector reads it):
# docsync_last_success_timestamp_seconds, docsync_last_run_timestamp_seconds, docsync_last_run_duration_seconds,
# docsync_last_run_result{result=ok|failed|interrupted|error}, docsync_last_run_docsets{outcome=installed|updated|
# unchanged|removed|failed}, docsync_last_run_feeds_failed, docsync_last_run_downloaded_bytes,
# docsync_last_run_resumed_bytes. Its folder must exist. Empty: none.
textfile = ""

# One [[feed]] table per feed. `url` is an http(s) URL or a local path; Atom (Apple docset feeds) and Dash/Zeal
# feed XML are told apart by content. Optional keys:
#   name       = folder name for the docset (default: the Dash feed's file name, or the Atom entry's title)
#   identifier = only this docset:identifier of an Atom feed
#   version    = install exactly this version ("VERSION[/REVISION]") and never update past it
#
# [[feed]]
# url = "https://kapeli.com/feeds/Swift.xml"
#
# [[feed]]
# url = "https://example.org/docsets/feed.atom"
# identifier = "org.cups.docset"
# name = "CUPS"

# Catalogues, for docsets chosen by name ([[docset]] below, `docsync catalog`, `add`, `adopt`). Each url is an
# http(s) URL (e.g. a campus mirror) or a local file; "" turns that catalogue off. They are fetched only when needed,
# with the same conditional-GET cache as feeds (a no-op sync: one 304 per catalogue, or nothing while fresh).
[catalog]
# Kapeli's `feeds` folders on each archive host. Archives: <mirror>/<Name>.tgz, older versions
# <mirror>/zzz/versions/<Name>/<V>/<Name>.tgz, contributions <mirror>/zzz/user_contributed/build/<Key>/<archive>,
# cheat sheets <mirror>/zzz/cheatsheets/<Key>.tgz. Tried in an order learned per host (<state>/mirrors.json).
mirrors = ["https://sanfrancisco.kapeli.com/feeds", "https://london.kapeli.com/feeds",
    "https://newyork.kapeli.com/feeds", "https://tokyo.kapeli.com/feeds", "https://frankfurt.kapeli.com/feeds"]

[catalog.zeal]
# Zeal's catalogue: names, titles, versions, aliases, icons (base64) and `extra` for meta.json.
url = "https://api.zealdocs.org/v1/docsets"

[catalog.kapeli]
# Kapeli's per-docset feeds (<base_url>/<Name>.xml), read for [[docset]] tables with source = "kapeli".
base_url = "https://kapeli.com/feeds"

[catalog.contrib]
# Dash user contributions (index.json, with specific_versions).
url = "https://kapeli.com/feeds/zzz/user_contributed/build/index.json"

[catalog.cheatsheets]
# Dash cheat sheets (cheat.json).
url = "https://kapeli.com/feeds/zzz/cheatsheets/cheat.json"

# One [[docset]] table per docset chosen by catalogue name (`docsync add NAME` appends them, `docsync drop NAME`
# removes them, keeping this file's comments). Keys:
#   name    = a catalogue name or alias, case-insensitive ("Python_3", "py3")
#   version = install exactly this version (from `versions` / `other-versions` / `specific_versions`), never update
#   source  = only this catalogue: "zeal", "kapeli", "contrib" or "cheatsheets" (default: zeal, then contrib, then
#             cheatsheets)
#   versions = keep these versions side by side instead ("latest" moves): the newest as NAME, each other as its own
#             docset NAME@VERSION (Zeal loads each); not together with `version`
#   keywords = search keywords added to the docset's own (`docsync search py:open`)
#
# [[docset]]
# name = "Python_3"
# versions = ["3.12", "latest"]
# keywords = ["py"]
#
# [[docset]]
# name = "Jest"
# version = "27.0"
# source = "contrib"

# [[group]]: a named group of installed docsets, selected as `--docset @NAME` in `docsync search` / `entries` and
# as "@NAME" in the library's SearchQuery.docsets. Keys:
#   name    = the group's name (no spaces, no leading @; each name once, case-insensitive)
#   docsets = the docset names (folder names without .docset, case-insensitive), at least one; NAME@VERSION names
#             one version kept side by side, which must be one its [[docset]] keeps (`versions` or `version`)
#
# [[group]]
# name = "web"
# docsets = ["JavaScript", "CSS", "HTML"]

# [mirror]: this host publishes what it installed as a static tree for a fleet (README "Fleet mirror"): every sync
# ends with `docsync mirror publish`. Serve `dir` with config/nginx-mirror.conf (or any web server, CDN or bucket).
# Redistributing someone's docsets (a public or company mirror) needs their permission.
#   dir          = the folder to write (archives/<sha256>/, feeds/<Name>.xml, docsets.atom, catalogue.json,
#                  manifest.lock); required
#   base_url     = the http(s) URL clients reach `dir` at (the caching tier's, when there is one); required
#   keep         = versions of each docset the feeds name: the newest and keep - 1 older ones (1–100; default 2)
#   grace_period = how long an archive no feed names any more stays, for clients mid-download (default "1h")
#   kapeli_permission = true when you have Kapeli's permission to redistribute its docsets (they may be used
#                  only personally or with Dash or Zeal); otherwise `mirror publish` warns once per Kapeli docset
#                  (default false)
#
# [mirror]
# dir = "/srv/docsync-mirror"
# base_url = "https://docsets.example.org"
# keep = 2
# grace_period = "1h"

# [serve]: `docsync serve` (README "Serving docsets over HTTP"): a read-only HTTP front for the installed docsets —
# pages under /d/, search under /api/, a search page at /. Run by `docsync serve`, and by `docsync daemon` beside
# the sync when this table is present. Keys:
#   listen           = HOST:PORT to bind ("[::1]:8484" for IPv6); loopback by default (default "127.0.0.1:8484")
#   allow_remote     = true to bind an address other than loopback (put nginx with TLS and auth in front;
#                      default false)
#   access_log       = "-" for standard output, a file path (appended), or "" for none (default "-")
#   idle_timeout     = a connection waiting this long for a request's first byte is closed (default "30s")
#   header_timeout   = a request head must be complete this long after its first byte, however slowly it trickles,
#                      or the connection is closed (nginx's client_header_timeout; default "10s")
#   body_timeout     = a request body must be complete this long after its head, or the connection is closed
#                      (default "10s")
#   request_timeout  = a search or page read taking longer than this is answered 503 (default "10s")
#   max_connections  = connections open at once, at most (1–65536; default 16384; lowered to fit the open-file
#                      limit, whose soft value serve raises to the hard one); past 15/16 of it the connections
#                      idle longest are closed for new ones, at it new ones wait in the backlog
#   cache_max_age    = Cache-Control max-age of pages (default "10m"; pages of one version never change)
#   page_cache_mib   = MiB of memory keeping pages inflated from tarix stores for the next request; a page
#                      of a tarix docset costs an inflate otherwise (0–4096; 0 for none; default 20)
#   kapeli_permission = true when you have Kapeli's permission to serve its docsets to others; otherwise a
#                      serve listening beyond loopback warns once per Kapeli docset (default false)
#
# [serve]
# listen = "127.0.0.1:8484"
# allow_remote = false
# access_log = "-"
# idle_timeout = "30s"
# header_timeout = "10s"
# body_timeout = "10s"
# request_timeout = "10s"
# max_connections = 16384
# cache_max_age = "10m"
# page_cache_mib = 20

"""#
}
