# Sourced by the benchmark scripts: the binaries they measure, built once the same way.
#   bench_docsync          prints the docsync to measure: $DOCSYNC if set, else the shipped build
#                          (scripts/build-release, which builds docsync-serve beside it)
#   bench_docsync_serve    prints the docsync-serve to measure: $DOCSYNC_SERVE, else the docsync-serve beside
#                          $DOCSYNC (what `docsync serve` execs), else the shipped build's
#   bench_driver NAME      prints a benchmark driver (tarix-bench, entries-bench-driver): a release build with
#                          DOCSYNC_BENCHMARKS=1, the switch that adds the drivers to the package (Package.swift)
# Build output goes to stderr, so `bin=$(bench_docsync)` captures the path only.
bench_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
command -v swift >/dev/null || export PATH="/opt/swift/usr/bin:$PATH"

bench_docsync() {
    if [ -n "${DOCSYNC:-}" ]; then echo "$DOCSYNC"; return; fi
    "$bench_root/scripts/build-release"
}

bench_docsync_serve() {
    if [ -n "${DOCSYNC_SERVE:-}" ]; then echo "$DOCSYNC_SERVE"; return; fi
    local docsync
    docsync=$(bench_docsync)
    if [ ! -x "$(dirname "$docsync")/docsync-serve" ]; then
        echo "no docsync-serve beside $docsync: set DOCSYNC_SERVE" >&2
        return 1
    fi
    echo "$(dirname "$docsync")/docsync-serve"
}

bench_driver() {
    (cd "$bench_root" && DOCSYNC_BENCHMARKS=1 swift build -c release --product "$1" >&2 &&
        echo "$(DOCSYNC_BENCHMARKS=1 swift build -c release --show-bin-path)/$1")
}
