#!/usr/bin/env python3
"""Driver of Benchmarks/index-bench (see there). usage: index-bench.py DOCSYNC WORK QUERIES SEARCH_BENCH_DRIVER"""
import glob, hashlib, os, random, shutil, sqlite3, statistics, subprocess, sys, time

docsync, work, count, driver = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
config = os.path.join(work, "docsync.toml")
root = os.path.join(work, "root")
rng = random.Random(11)


def tree_hashes(top):
    out = {}
    for folder, dirs, files in os.walk(top):
        for f in files:
            p = os.path.join(folder, f)
            if os.path.islink(p):
                out[p] = "link " + os.readlink(p)
                continue
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
            st = os.stat(p)
            out[p] = "%o %d %s" % (st.st_mode, st.st_mtime_ns, h.hexdigest())
    return out


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


# Queries: names sampled from the generated docsets.
names = [n for n in open(os.path.join(work, "gen", "names.txt")).read().split("\n") if len(n) >= 6]
queries = []
for i in range(count):
    name = rng.choice(names)
    kind = ["exact", "prefix", "substring", "fuzzy"][i % 4]
    if kind == "exact":
        q = name
    elif kind == "prefix":
        q = name[: rng.randint(3, 6)]
    elif kind == "substring":
        start = rng.randint(1, max(1, len(name) - 5))
        q = name[start : start + rng.randint(3, 5)]
    else:
        picks = sorted(rng.sample(range(len(name)), min(len(name), rng.randint(4, 6))))
        q = "".join(name[j] for j in picks)
    queries.append((kind, q))
qfile = os.path.join(work, "queries.txt")
with open(qfile, "w") as f:
    f.write("".join("%s\t%s\n" % kq for kq in queries))

before = tree_hashes(root)

# Derived index build: from nothing, as the first search after an install without the sync engine does it
# (REINDEX=0 keeps the derived indexes of the last run: only the queries are measured again).
reindex = os.environ.get("REINDEX", "1") != "0"
if reindex:
    shutil.rmtree(os.path.join(work, "state", "index"), ignore_errors=True)
t0 = time.monotonic()
subprocess.run([docsync, "search", "--config", config, "zzzzzzzz"], stdout=subprocess.DEVNULL)
build = time.monotonic() - t0
size = sum(os.path.getsize(p) for p in glob.glob(os.path.join(work, "state", "index", "*", "*")))
dsidx = sum(os.path.getsize(p) for p in glob.glob(os.path.join(root, ".docsync", "versions", "*", "Contents",
                                                              "Resources", "docSet.dsidx")))
entries = 0
for p in glob.glob(os.path.join(root, "*.docset", "Contents", "Resources", "docSet.dsidx")):
    db = sqlite3.connect("file:%s?mode=ro" % p, uri=True)
    entries += db.execute("SELECT count(*) FROM searchIndex").fetchone()[0]
    db.close()

# docsync: every query in one process (the library as a backend would hold it). Peak RSS from /usr/bin/time: a
# child's ru_maxrss seen from this Python process would include the RSS of the forked Python before exec.
rss_file = os.path.join(work, "rss.txt")
# --warm-up: every query is answered once (the cold first pass, reported apart: what a query costs after the index
# left the page cache or the process's mappings, e.g. after a pause) before the timed pass.
out = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss_file, driver, "--warm-up", config, qfile, "20"],
                     stdout=subprocess.PIPE, text=True, check=True).stdout
rss_mib = int(open(rss_file).read().split()[-1]) / 1024
ours = {}
cold = {}
slowest = {}  # per kind (and "cold-" kind): the slowest query's time and text
hits = {}
cpu = {}  # the searching thread's CPU time: what a query cost, on a loaded machine, without the wait for a core
process_cpu = {}  # the whole process's: a search split over the pool's threads runs on several
memory = None
seen = {}
for line in out.splitlines():
    if line.startswith("#memory\t"):
        memory = [int(v) / 1024 for v in line.split("\t")[1:]]  # VmHWM, peak RssAnon, RssFile at the end
        continue
    kind, micros, n, cpu_micros, process_micros = (line.split("\t") + ["0"])[:5]
    ms = int(micros) / 1000
    k = seen.get(kind, 0)  # the k-th query of this kind in this pass
    seen[kind] = k + 1
    text = [q for qk, q in queries if "cold-" + qk == kind or qk == kind][k]
    if ms > slowest.get(kind, (-1, ""))[0]:
        slowest[kind] = (ms, text)
    if kind.startswith("cold-"):
        cold.setdefault(kind[5:], []).append(ms)
        continue
    ours.setdefault(kind, []).append(ms)
    hits.setdefault(kind, []).append(int(n))
    cpu.setdefault(kind, []).append(int(cpu_micros) / 1000)
    process_cpu.setdefault(kind, []).append(int(process_micros) / 1000)


def like_pattern(kind, q):
    escaped = q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    if kind == "fuzzy":  # a LIKE client's only way to a subsequence match
        return "%" + "%".join(escaped) + "%"
    return "%" + escaped + "%"


def dash_sql(pattern, coredata):
    literal = pattern.replace("'", "''")
    if coredata:
        return ("SELECT ztokenname, ztypename, zpath || ifnull('#' || nullif(zanchor, ''), '') FROM ztoken"
                " JOIN ztokenmetainformation ON ztokenmetainformation.z_pk = ztoken.zmetainformation"
                " JOIN zfilepath ON zfilepath.z_pk = ztokenmetainformation.zfile"
                " JOIN ztokentype ON ztokentype.z_pk = ztoken.ztokentype"
                " WHERE ztokenname LIKE '%s' ESCAPE '\\' ORDER BY ztokenname COLLATE NOCASE LIMIT 100;" % literal)
    return ("SELECT name, type, path FROM searchIndex WHERE name LIKE '%s' ESCAPE '\\'"
            " ORDER BY name COLLATE NOCASE LIMIT 100;" % literal)


indexes = sorted(glob.glob(os.path.join(root, "*.docset", "Contents", "Resources", "docSet.dsidx")))
coredata = {}
for p in indexes:
    db = sqlite3.connect("file:%s?mode=ro" % p, uri=True)
    coredata[p] = db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'ZTOKEN'").fetchone()[0] > 0
    db.close()

# The anchors scan every docset per query: over many docsets they take seconds a query, so they answer a sample
# (the first queries, every kind in turn). ANCHOR_QUERIES / CLI_QUERIES override the sample sizes.
many = len(indexes) > 50
anchor_count = int(os.environ.get("ANCHOR_QUERIES", 40 if many else count))
cli_count = int(os.environ.get("CLI_QUERIES", 12 if many else max(4, count // 4)))

# dasht-style through the sqlite3 CLI: one process per docset per query (as dasht-query-line runs them).
cli = {}
cli_queries = queries[:cli_count]
for kind, q in cli_queries:
    t0 = time.monotonic()
    for p in indexes:
        subprocess.run(["sqlite3", "-readonly", p, dash_sql(like_pattern(kind, q), coredata[p])],
                       stdout=subprocess.DEVNULL, check=True)
    cli.setdefault(kind, []).append((time.monotonic() - t0) * 1000)

# The same SQL in-process (connections kept open, warm): SQLite's LIKE scan without process start-up.
conns = {p: sqlite3.connect("file:%s?mode=ro" % p, uri=True) for p in indexes}
for p, db in conns.items():
    db.execute("SELECT count(*) FROM sqlite_master").fetchall()
inproc = {}
for kind, q in queries[:anchor_count]:
    t0 = time.monotonic()
    for p, db in conns.items():
        db.execute(dash_sql(like_pattern(kind, q), coredata[p])).fetchall()
    inproc.setdefault(kind, []).append((time.monotonic() - t0) * 1000)

after = tree_hashes(root)
changed = sum(1 for k in set(before) | set(after) if before.get(k) != after.get(k))

print("docsets: %d, entries: %d, docSet.dsidx total %.1f MiB" % (len(indexes), entries, dsidx / 2**20))
if reindex:
    print("derived index: built in %.1f s (%.1f s per million entries), %.1f MiB on disk (%.1f bytes per entry)"
          % (build, build / (entries / 1e6), size / 2**20, size / entries))
else:
    print("derived index: kept from the last run (REINDEX=0), %.1f MiB on disk (%.1f bytes per entry)"
          % (size / 2**20, size / entries))
anonymous = memory[1] if memory else float("inf")
print("docsync search peak RSS: %.1f MiB (VmHWM %.1f MiB); resident beyond the page cache (peak RssAnon): %.1f MiB;"
      " file pages at the end %.1f MiB" % (rss_mib, memory[0] if memory else 0, anonymous, memory[2] if memory else 0))
print("anchors: the sqlite3 CLI over the first %d queries, in-process LIKE over the first %d (of %d)"
      % (len(cli_queries), min(anchor_count, len(queries)), len(queries)))
print()
print("%-10s %6s %9s %9s %12s %12s %11s %11s %8s" % ("kind", "n", "p50 ms", "p99 ms", "cli p50 ms", "cli p99 ms",
                                                   "sql p50 ms", "sql p99 ms", "hits"))
for kind in ["exact", "prefix", "substring", "fuzzy"]:
    a, c, s = ours.get(kind, [0]), cli.get(kind, [0]), inproc.get(kind, [0])
    print("%-10s %6d %9.2f %9.2f %12.1f %12.1f %11.1f %11.1f %8.1f" % (
        kind, len(a), percentile(a, 50), percentile(a, 99), percentile(c, 50), percentile(c, 99),
        percentile(s, 50), percentile(s, 99), statistics.mean(hits.get(kind, [0]))))
print("CPU time of the searching thread, p50 / p99 ms: " + ", ".join(
    "%s %.2f / %.2f" % (k, percentile(cpu.get(k, [0]), 50), percentile(cpu.get(k, [0]), 99))
    for k in ["exact", "prefix", "substring", "fuzzy"]))
print("CPU time of the process (every thread of a split search), p50 / p99 ms: " + ", ".join(
    "%s %.2f / %.2f" % (k, percentile(process_cpu.get(k, [0]), 50), percentile(process_cpu.get(k, [0]), 99))
    for k in ["exact", "prefix", "substring", "fuzzy"]))
print("cold first pass (every query once before the timed pass), p50 / p99 ms: " + ", ".join(
    "%s %.2f / %.2f" % (k, percentile(cold.get(k, [0]), 50), percentile(cold.get(k, [0]), 99))
    for k in ["exact", "prefix", "substring", "fuzzy"]))
print("slowest query, timed pass (cold pass): " + "; ".join(
    "%s %r %.2f ms (%r %.2f ms)" % (k, slowest.get(k, (0, ""))[1], slowest.get(k, (0, ""))[0],
                                   slowest.get("cold-" + k, (0, ""))[1], slowest.get("cold-" + k, (0, ""))[0])
    for k in ["exact", "prefix", "substring", "fuzzy"]))
print("load average at the end: %s" % open("/proc/loadavg").read().split()[:3])
print()
print("files changed in the installed root: %d (of %d)" % (changed, len(before)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from goals import goal_check
for kind in ["exact", "prefix", "substring", "fuzzy"]:
    goal_check("index-bench", "p99_" + kind, percentile(ours.get(kind, [float("inf")]), 99))
goal_check("index-bench", "peak_anon", anonymous)
goal_check("index-bench", "files_changed", changed)
