# Driver of Benchmarks/serve-bench: starts `docsync serve` and nginx on free loopback ports, runs wrk, prints the
# results and docsync's peak RSS (VmHWM).
import json, os, random, re, socket, subprocess, sys, time, urllib.request
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from goals import goal_check

docsync, work, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3])
root, state = work + "/root", os.environ.get("STATE_DIR") or work + "/state"
modes = (os.environ.get("MODES") or "search,pages").split(",")
rng = random.Random(7)

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close(); return port

def wait_listening(port, proc):
    for _ in range(600):
        if proc.poll() is not None: sys.exit("server exited (%s)" % proc.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close(); return
        except OSError: time.sleep(0.05)
    sys.exit("server did not listen on %d" % port)

def lua_list(name, items):
    with open(os.path.join(work, name), "w") as f:
        f.write("\n".join(items) + "\n")
    return os.path.join(work, name)

def wrk(url, script, connections, extra_env=None):
    env = dict(os.environ, THREADS="2", WRK_RATE="0")
    env.update(extra_env or {})
    out = subprocess.run(["wrk", "-t2", "-c%d" % connections, "-d%ds" % seconds, "--latency", "-s", script, url],
                         capture_output=True, text=True, env=env, check=True).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    lat = {}
    for p, v, unit in re.findall(r"^\s+(50|75|90|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M):
        lat[p] = float(v) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return rps, lat, int(errors.group(1)) if errors else 0, out

def tree_cpu(pid):
    """CPU seconds (user + system) used so far by `pid` and every process below it (nginx's workers)."""
    parents, cpu = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit(): continue
        try: fields = open("/proc/%s/stat" % entry).read().rsplit(")", 1)[1].split()
        except OSError: continue
        parents[int(entry)], cpu[int(entry)] = int(fields[1]), int(fields[11]) + int(fields[12])
    tree, grown = {pid}, True
    while grown:
        grown = False
        for child, parent in parents.items():
            if parent in tree and child not in tree: tree.add(child); grown = True
    return sum(cpu.get(p, 0) for p in tree) / os.sysconf("SC_CLK_TCK")

def wrk_cpu(pid, url, script, connections, extra_env):
    """wrk() plus the server's CPU microseconds per request over the run (the cost to compare on a loaded machine)."""
    before = tree_cpu(pid)
    rps, lat, errors, out = wrk(url, script, connections, extra_env)
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    return rps, lat, errors, (tree_cpu(pid) - before) * 1e6 / max(1, requests)

# Queries as index-bench makes them: names sampled from the generated docsets, four kinds in equal parts.
names = [n for n in open(os.path.join(work, "gen", "names.txt")).read().split("\n") if len(n) >= 6]
queries = []
for i in range(400):
    name = rng.choice(names)
    kind = i % 4
    if kind == 0: q = name
    elif kind == 1: q = name[: rng.randint(3, 6)]
    elif kind == 2:
        start = rng.randint(1, max(1, len(name) - 5)); q = name[start : start + rng.randint(3, 5)]
    else:
        picks = sorted(rng.sample(range(len(name)), min(len(name), rng.randint(4, 6))))
        q = "".join(name[j] for j in picks)
    queries.append("/api/search?limit=20&q=" + urllib.request.quote(q))
query_file = lua_list("queries.list", queries)

version = os.path.basename(os.path.realpath(os.path.join(root, "Pages.docset")))
pages = [p for p in open(os.path.join(work, "pages.txt")).read().split("\n") if p]
page_file = lua_list("pages.list", ["/d/%s/%s" % (version, p) for p in pages])
nginx_file = lua_list("pages-nginx.list", ["/d/%s/%s" % (version, p) for p in pages])
tarix_version = os.path.basename(os.path.realpath(os.path.join(root, "PagesTarix.docset")))
tarix_file = lua_list("pages-tarix.list", ["/d/%s/%s" % (tarix_version, p) for p in pages])

script = os.path.join(work, "paths.lua")
with open(script, "w") as f:
    # WRK_RATE > 0: a fixed offered rate (wrk has no such mode; Debian's wrk runs LuaJIT, so the clock is ffi's
    # clock_gettime). Each wrk thread keeps one schedule of send times, threads / WRK_RATE apart: a connection that has
    # its answer takes the next slot (next_send += interval) and waits until then (delay = max(0, next_send - now)),
    # so the rate holds however slow one answer is, as long as some connection is free. A slot taken after its time
    # is a late send (wrk times a request from its send, so lateness is latency wrk does not see): counted, with the
    # largest, and printed by done().
    f.write("""
local paths = {}
for line in io.lines(os.getenv("PATHS")) do paths[#paths + 1] = line end
local rate = tonumber(os.getenv("WRK_RATE") or "0")
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i * 7919) % #paths + 1])
end
if rate > 0 then
  local ffi = require("ffi")
  ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } bench_timespec; int clock_gettime(int, bench_timespec *); ]]
  local ts = ffi.new("bench_timespec")
  local function now_ms()
    ffi.C.clock_gettime(1, ts)
    return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
  end
  local threads = {}
  setup = function(thread) threads[#threads + 1] = thread end
  local interval, next_send = 0, nil
  late, late_max = 0, 0
  init = function(args) interval = 1000 * tonumber(os.getenv("THREADS") or "1") / rate end
  delay = function()
    local now = now_ms()
    if next_send == nil then next_send = now end
    next_send = next_send + interval
    local wait = next_send - now
    if wait < -1 then
      late = late + 1
      if -wait > late_max then late_max = -wait end
    end
    return math.max(0, wait)
  end
  done = function(summary, latency, requests)
    local count, worst = 0, 0
    for _, thread in ipairs(threads) do
      count = count + thread:get("late")
      worst = math.max(worst, thread:get("late_max"))
    end
    io.write(string.format("schedule: %d late sends (> 1 ms), latest %.1f ms\\n", count, worst))
  end
end
""")

def serve_config(port, cache_mib=None):
    path = os.path.join(work, "docsync.toml" if cache_mib is None else "docsync-cache%d.toml" % cache_mib)
    with open(path, "w") as f:
        f.write('root = "%s"\nstaging = "%s/staging"\nstate = "%s"\n[serve]\nlisten = "127.0.0.1:%d"\naccess_log = ""\n'
                % (root, work, state, port))
        if cache_mib is None and os.environ.get("PAGE_CACHE_MIB"): cache_mib = int(os.environ["PAGE_CACHE_MIB"])
        if cache_mib is not None: f.write("page_cache_mib = %d\n" % cache_mib)
        f.write('[metrics]\ntextfile = "%s"\n' % metrics_file)
    return path

metrics_file = os.path.join(work, "serve.prom")
if os.path.exists(metrics_file): os.remove(metrics_file)

def cache_counts():
    # The server's page cache totals, written into the metrics textfile when it stops.
    counts = {}
    for line in open(metrics_file).read().split("\n") if os.path.exists(metrics_file) else []:
        for name in ("hits", "misses"):
            if line.startswith("docsync_serve_page_cache_%s_total " % name): counts[name] = int(float(line.split()[1]))
    return counts.get("hits", 0), counts.get("misses", 0)

def peak_rss(pid):
    status = open("/proc/%d/status" % pid).read()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024.0

port, cold_port, cold = free_port(), free_port(), None
server = subprocess.Popen([docsync, "serve", "--config", serve_config(port)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wait_listening(port, server)

nginx, nginx_port = None, free_port()
nginx_dir = os.path.join(work, "nginx")
os.makedirs(nginx_dir, exist_ok=True)
documents = os.path.realpath(os.path.join(root, "Pages.docset")) + "/Contents/Resources/Documents/"
with open(os.path.join(nginx_dir, "nginx.conf"), "w") as f:
    f.write("""worker_processes auto; pid %(d)s/nginx.pid; error_log %(d)s/error.log; daemon off;
events { worker_connections 1024; }
http { access_log off; sendfile on; tcp_nopush on; include /etc/nginx/mime.types;
  client_body_temp_path %(d)s; proxy_temp_path %(d)s; fastcgi_temp_path %(d)s; uwsgi_temp_path %(d)s;
  scgi_temp_path %(d)s;
  server { listen 127.0.0.1:%(p)d; location /d/%(v)s/ { alias %(docs)s; etag on; } } }
""" % {"d": nginx_dir, "p": nginx_port, "v": version, "docs": documents})
nginx = subprocess.Popen(["nginx", "-c", os.path.join(nginx_dir, "nginx.conf"), "-p", nginx_dir],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    wait_listening(nginx_port, nginx)
    base = "http://127.0.0.1:%d" % port
    # Warm-up: every docset's derived index opened, every page read once (both servers read the page cache after).
    subprocess.run(["wrk", "-t2", "-c4", "-d5s", "-s", script, base], env=dict(os.environ, PATHS=query_file),
                   capture_output=True, check=True)
    for warm in (page_file, tarix_file) if "pages" in modes else ():
        subprocess.run(["wrk", "-t2", "-c4", "-d5s", "-s", script, base], env=dict(os.environ, PATHS=warm),
                       capture_output=True, check=True)
    print("load average before the runs: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    if "search" in modes:
        rate = int(os.environ.get("RATE") or 500)
        print("search: 400 queries (exact/prefix/substring/fuzzy), limit 20, offered at a fixed %d req/s"
              " (20 connections, one send schedule per wrk thread)" % rate)
        rps, lat, errors, out = wrk(base, script, 20, {"PATHS": query_file, "WRK_RATE": str(rate)})
        late = re.search(r"schedule: (\d+) late sends \(> 1 ms\), latest ([\d.]+) ms", out)
        maximum = re.search(r"^\s+Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)", out, re.M)
        print("  docsync serve   %7.0f req/s achieved   p50 %6.2f ms  p90 %6.2f ms  p99 %6.2f ms  max %6.2f ms"
              "  non-2xx %d"
              % (rps, lat.get("50", -1), lat.get("90", -1), lat.get("99", -1),
                 float(maximum.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[maximum.group(2)] if maximum else -1,
                 errors))
        if late:
            print("  sends behind the schedule by more than 1 ms: %s of %d (latest %s ms)"
                  % (late.group(1), int(rps * seconds), late.group(2)))
        print("  peak RSS so far (warm-ups and search): %.1f MiB" % peak_rss(server.pid))
        if rate == 500: goal_check("serve-bench", "search_p99", lat.get("99", float("inf")))
    if "pages" not in modes: sys.exit(0)  # MODES=search: no page runs
    print("pages: %d HTML pages of 2-64 KiB, 32 connections, as fast as possible" % len(pages))
    d_rps, d_lat, d_err, d_cpu = wrk_cpu(server.pid, base, script, 32, {"PATHS": page_file})
    n_rps, n_lat, n_err, n_cpu = wrk_cpu(
        nginx.pid, "http://127.0.0.1:%d" % nginx_port, script, 32, {"PATHS": nginx_file})
    print("  docsync serve   %7.0f req/s   p99 %6.2f ms  non-2xx %d   %5.1f CPU us/req"
          % (d_rps, d_lat.get("99", -1), d_err, d_cpu))
    print("  nginx (anchor)  %7.0f req/s   p99 %6.2f ms  non-2xx %d   %5.1f CPU us/req"
          % (n_rps, n_lat.get("99", -1), n_err, n_cpu))
    t_rps, t_lat, t_err, t_cpu = wrk_cpu(server.pid, base, script, 32, {"PATHS": tarix_file})
    print("  ratio           %7.2fx nginx (CPU per request %.2fx nginx's)" % (d_rps / n_rps, d_cpu / n_cpu))
    print("  docsync, tarix  %7.0f req/s   p99 %6.2f ms  non-2xx %d   %.2fx nginx   %5.1f CPU us/req"
          % (t_rps, t_lat.get("99", -1), t_err, t_rps / n_rps, t_cpu))
    print("docsync serve peak RSS: %.1f MiB" % peak_rss(server.pid))
    goal_check("serve-bench", "pages_ratio_nginx", d_rps / n_rps)
    goal_check("serve-bench", "tarix_pages_ratio_nginx", t_rps / n_rps)
    goal_check("serve-bench", "peak_rss", peak_rss(server.pid))
    server.terminate(); server.wait(timeout=30)
    hits, misses = cache_counts()
    print("  tarix page cache (warm-up and run): %d hits, %d pages inflated: hit rate %.1f %%"
          % (hits, misses, 100.0 * hits / max(1, hits + misses)))
    # Cold tarix pages: the same run against a server without the page cache (page_cache_mib = 0), so that every
    # page is looked up and inflated (the SQLite index and the archive stay open and in the page cache).
    if os.environ.get("COLD", "1") != "1": sys.exit(0)  # COLD=0: a build without [serve] page_cache_mib
    cold = subprocess.Popen([docsync, "serve", "--config", serve_config(cold_port, 0)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_listening(cold_port, cold)
    c_rps, c_lat, c_err, _ = wrk("http://127.0.0.1:%d" % cold_port, script, 32, {"PATHS": tarix_file})
    print("  tarix, no cache %7.0f req/s   p99 %6.2f ms  non-2xx %d   %.2fx nginx (every page inflated)"
          % (c_rps, c_lat.get("99", -1), c_err, c_rps / n_rps))
finally:
    print("load average after the runs: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    for proc in (server, nginx, cold):
        if proc is not None and proc.poll() is None:
            proc.terminate(); proc.wait(timeout=30)
