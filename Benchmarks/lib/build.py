"""The binaries a Python benchmark measures, from Benchmarks/lib/build.sh (the one build helper; this only calls it).

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "lib")); from build import bench_docsync
    docsync = bench_docsync()   # $DOCSYNC if set, else the shipped build (scripts/build-release)
"""
import os
import subprocess

_SH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "build.sh")


def _call(function, *args):
    """Runs one function of build.sh; its build output goes to stderr, the path it prints is returned."""
    command = 'source "$0" && "$@"'
    return subprocess.run(
        ["bash", "-c", command, _SH, function, *args], stdout=subprocess.PIPE, text=True, check=True
    ).stdout.strip()


def bench_docsync():
    """The docsync to measure: $DOCSYNC if set, else the shipped build."""
    return os.environ.get("DOCSYNC") or _call("bench_docsync")


def bench_driver(name):
    """A benchmark driver (tarix-bench, entries-bench-driver, search-bench-driver): a release build."""
    return _call("bench_driver", name)


def bench_command(argv):
    """A measured command line: a leading bare `docsync` becomes bench_docsync()'s binary; a path stays as given."""
    return [bench_docsync(), *argv[1:]] if argv and argv[0] == "docsync" else list(argv)
