#!/usr/bin/env python3
"""Generates docsets in both index formats for index-bench (and by hand): Dash (Kapeli's searchIndex with
<dash_entry_...> markup and #fragments) and Apple Core Data (ZTOKEN... tables, optionally left in WAL mode with
the entries in docSet.dsidx-wal, as Apple's XAR docsets ship).

usage: gen-docsets.py OUT_DIR COUNT TOTAL_ENTRIES [--seed N] [--tgz]
Writes OUT_DIR/NAME.docset folders (or OUT_DIR/NAME.tgz archives with --tgz) and OUT_DIR/names.txt (a sample
of entry names for the query generator)."""
import os, random, sqlite3, sys, tarfile

WORDS = ("array string map set list dict view controller manager buffer stream reader writer socket request "
         "response session client server parser builder factory handler delegate layer node tree graph queue "
         "stack heap cache pool thread task timer event signal channel store record index cursor query table "
         "column row field value key token scanner lexer compiler module package bundle resource image color "
         "font path url file folder device sensor camera audio video media player codec format encoder decoder").split()
TYPES_DASH = ["Function", "Method", "Class", "Constant", "Property", "Type", "Variable", "Macro", "Guide", "Struct",
              "Public Member Functions", "Data Fields", "Enum"]
TYPES_APPLE = ["clm", "instm", "cl", "func", "tdef", "econst", "instp", "intf", "macro", "data", "cat"]


def name_for(rng):
    style = rng.random()
    parts = [rng.choice(WORDS) for _ in range(rng.randint(1, 4))]
    if style < 0.4:
        return "".join(p.capitalize() for p in parts)
    if style < 0.6:
        return "_".join(parts)
    if style < 0.8:
        return rng.choice(["NS", "UI", "CF", "Q", "G"]) + "".join(p.capitalize() for p in parts)
    return ".".join(parts[:2]) + "." + "".join(p.capitalize() for p in parts[2:]) if len(parts) > 2 else parts[0] + "()"


def dash_docset(path, entries, rng, names):
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT);"
                     "CREATE UNIQUE INDEX anchor ON searchIndex (name, type, path);")
    rows = {}  # a dict, not a set: its order is the generation's, so the same seed writes the same rows and sample
    while len(rows) < entries:
        n = name_for(rng)
        page = "api/%s.html" % rng.choice(WORDS)
        p = "<dash_entry_name=%s><dash_entry_originalName=%s>%s#//apple_ref/cpp/%s/%s" % (n, n, page, "Function", n) \
            if rng.random() < 0.3 else "%s#%s" % (page, n)
        rows[(n, rng.choice(TYPES_DASH), p)] = None
    db.executemany("INSERT INTO searchIndex(name, type, path) VALUES (?, ?, ?)", rows)
    db.commit()
    db.close()
    names.extend(r[0] for r in list(rows)[:200])


def apple_docset(path, entries, rng, names, wal):
    db = sqlite3.connect(path)
    if wal:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA wal_autocheckpoint=0")
    db.executescript("""
        CREATE TABLE ZTOKENTYPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTYPENAME VARCHAR);
        CREATE TABLE ZFILEPATH (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPATH VARCHAR);
        CREATE TABLE ZTOKENMETAINFORMATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOKEN INTEGER,
          ZFILE INTEGER, ZANCHOR VARCHAR, ZDECLARATION VARCHAR, ZABSTRACT VARCHAR);
        CREATE TABLE ZTOKEN (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOKENTYPE INTEGER,
          ZMETAINFORMATION INTEGER, ZTOKENNAME VARCHAR, ZTOKENUSR VARCHAR);
        CREATE INDEX ZTOKEN_ZTOKENTYPE_INDEX ON ZTOKEN (ZTOKENTYPE);
    """)
    db.executemany("INSERT INTO ZTOKENTYPE(Z_PK, ZTYPENAME) VALUES (?, ?)", list(enumerate(TYPES_APPLE, 1)))
    files = [(i, "documentation/%s/%s.html" % (rng.choice(WORDS), rng.choice(WORDS))) for i in range(1, 200)]
    db.executemany("INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (?, ?)", files)
    meta, tokens = [], []
    for pk in range(1, entries + 1):
        n = name_for(rng)
        t = rng.randint(1, len(TYPES_APPLE))
        meta.append((pk, pk, rng.randint(1, len(files)), "//apple_ref/occ/%s/%s" % (TYPES_APPLE[t - 1], n)))
        tokens.append((pk, t, pk, n))
    db.executemany("INSERT INTO ZTOKENMETAINFORMATION(Z_PK, ZTOKEN, ZFILE, ZANCHOR) VALUES (?, ?, ?, ?)", meta)
    db.executemany("INSERT INTO ZTOKEN(Z_PK, ZTOKENTYPE, ZMETAINFORMATION, ZTOKENNAME) VALUES (?, ?, ?, ?)", tokens)
    db.commit()
    names.extend(t[3] for t in tokens[:200])
    if wal:
        # Leave the entries in the -wal, as Apple ships them: copy the files while the connection is still open.
        import shutil
        for suffix in ("", "-wal"):
            shutil.copyfile(path + suffix, path + ".keep" + suffix)
        db.close()
        for suffix in ("", "-wal"):
            os.replace(path + ".keep" + suffix, path + suffix)
        if os.path.exists(path + "-shm"):
            os.remove(path + "-shm")
    else:
        db.close()


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    if "--seed" in sys.argv:
        args.remove(str(seed))
    out, count, total = args[0], int(args[1]), int(args[2])
    rng = random.Random(seed)
    os.makedirs(out, exist_ok=True)
    names = []
    per = total // count
    for i in range(count):
        name = "Bench%02d" % i
        folder = os.path.join(out, name + ".docset")
        res = os.path.join(folder, "Contents", "Resources")
        os.makedirs(os.path.join(res, "Documents"), exist_ok=True)
        with open(os.path.join(folder, "Contents", "Info.plist"), "w") as f:
            f.write('<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleName</key><string>%s</string>'
                    '</dict></plist>\n' % name)
        with open(os.path.join(res, "Documents", "index.html"), "w") as f:
            f.write("<html>%s</html>\n" % name)
        db = os.path.join(res, "docSet.dsidx")
        if i % 2 == 0:
            dash_docset(db, per, rng, names)
        else:
            apple_docset(db, per, rng, names, wal=(i % 4 == 1))
        if "--tgz" in sys.argv:
            with tarfile.open(os.path.join(out, name + ".tgz"), "w:gz") as tar:
                tar.add(folder, arcname=name + ".docset")
    with open(os.path.join(out, "names.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
