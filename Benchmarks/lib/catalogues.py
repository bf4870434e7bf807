#!/usr/bin/env python3
"""The three catalogues of the no-op benchmarks (catalog-noop-bench, sync-noop-bench), served from WORK/www: Zeal's
catalogue JSON (200 docsets with base64 icons, ~1.3 MB), a Dash user contributions index.json and a cheat sheet
cheat.json; 150 of their docsets (120 Zeal, 20 contributions, 10 cheat sheets) archived from WORK/src/Tiny.docset
and selected by name: the [catalog] tables and one [[docset]] each are appended to TOML.

usage: catalogues.py WORK BASE_URL TOML [ZEAL_PREFIX]   (Zeal's docsets are named ZEAL_PREFIX000…, default Doc)"""
import base64, json, os, random, shutil, subprocess, sys

work, base, toml = sys.argv[1], sys.argv[2], sys.argv[3]
prefix = sys.argv[4] if len(sys.argv) > 4 else "Doc"
rng = random.Random(20261123)


def icon(n):  # PNG signature + random bytes: the size of a real catalogue icon
    return base64.b64encode(b"\x89PNG\r\n\x1a\n" + bytes(rng.getrandbits(8) for _ in range(n))).decode()


def archive(name, path):
    src = f"{work}/src/{name}.docset"
    shutil.copytree(f"{work}/src/Tiny.docset", src)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["tar", "-C", f"{work}/src", "-czf", path, f"{name}.docset"], check=True)
    shutil.rmtree(src)


os.makedirs(f"{work}/www/contrib", exist_ok=True)
zeal, selected = [], []
for i in range(200):
    name = f"{prefix}{i:03d}"
    zeal.append({"name": name, "title": f"{prefix} {i}", "sourceId": "com.kapeli.dash", "revision": "0",
                 "versions": ["1.%d" % i, "1.0"], "icon": icon(1500), "icon2x": icon(3500),
                 "extra": {"indexFilePath": "index.html"}, "aliases": [f"{prefix.lower()}{i}"]})
    if i < 120:
        archive(name, f"{work}/www/feeds/{name}.tgz")
        selected.append(name)
contrib = {}
for i in range(60):
    key = f"Contrib{i:02d}"
    contrib[key] = {"name": key, "version": "2.%d" % i, "archive": f"{key}.tgz", "icon": icon(1500)}
    if i < 20:
        archive(key, f"{work}/www/contrib/{key}/{key}.tgz")
        selected.append(key)
sheets = {}
for i in range(40):
    key = f"Sheet{i:02d}"
    sheets[key] = {"name": f"Sheet {i}", "version": "3"}
    if i < 10:
        archive(key, f"{work}/www/feeds/zzz/cheatsheets/{key}.tgz")
        selected.append(key)
json.dump(zeal, open(f"{work}/www/zeal.json", "w"))
json.dump({"docsets": contrib}, open(f"{work}/www/contrib/index.json", "w"))
json.dump({"cheatsheets": sheets}, open(f"{work}/www/cheat.json", "w"))
with open(toml, "a") as f:
    f.write(f'[catalog]\nmirrors = ["{base}/feeds"]\n[catalog.zeal]\nurl = "{base}/zeal.json"\n')
    f.write(f'[catalog.kapeli]\nbase_url = "{base}/feeds"\n[catalog.contrib]\nurl = "{base}/contrib/index.json"\n')
    f.write(f'[catalog.cheatsheets]\nurl = "{base}/cheat.json"\n')
    for name in selected:
        f.write(f'\n[[docset]]\nname = "{name}"\n')
