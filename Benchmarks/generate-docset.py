#!/usr/bin/env python3
"""Generates a docset-like tree for the install benchmark: FILES HTML pages of 2-12 KB of Zipf-distributed words in
realistic markup (the tree gzips ~4.5:1, like real Dash docsets), an Info.plist and a real SQLite docSet.dsidx.

usage: generate-docset.py OUT_DIR [FILES [NAME [LAYOUT [ENTRIES]]]]   (creates OUT_DIR/NAME.docset; NAME: Bench)

LAYOUT: dash (default: Documents/, a Dash searchIndex), coredata (Documents/, Apple's Core Data ZTOKEN tables, paths
relative to Documents/), apple (CUPS's: Documentation/ and no Documents/, Core Data paths `Documentation/...`,
relative to Contents/Resources).

env TAIL_WORDS=N (default 0: pages as before, byte for byte): each page also gets a paragraph of N words drawn from a
long-tailed Zipf vocabulary of 200,000 words (its own seeded generator), so a large docset has rare words (on a few
pages) beside the common ones (on nearly every page), as real documentation does (fulltext-bench uses 16).

ENTRIES (default FILES, dash only): rows in the index. One entry per page (a Function); entries beyond FILES are
Methods with a #fragment on a page, named `Ident.member` (the pages are the same whatever ENTRIES is)."""
import itertools
import os
import random
import sqlite3
import sys

out = sys.argv[1]
count = int(sys.argv[2]) if len(sys.argv) > 2 else 60000
name = sys.argv[3] if len(sys.argv) > 3 else "Bench"
layout = sys.argv[4] if len(sys.argv) > 4 else "dash"
assert layout in ("dash", "coredata", "apple"), layout
entries = int(sys.argv[5]) if len(sys.argv) > 5 else count
assert layout == "dash" or entries == count, "ENTRIES is for the dash layout"
rng = random.Random(20261122)
letters = "abcdefghijklmnopqrstuvwxyz"
vocab = ["".join(rng.choice(letters) for _ in range(rng.randint(2, 9))) for _ in range(3000)]
weights = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(vocab))))
idents = ["".join(rng.choice(letters + "_") for _ in range(rng.randint(5, 18))) for _ in range(2000)]
sentences = []
for _ in range(30000):
    text = " ".join(rng.choices(vocab, cum_weights=weights, k=rng.randint(6, 18)))
    kind = rng.random()
    if kind < 0.2:
        text = "<code>%s(%s)</code> %s." % (rng.choice(idents), rng.choice(idents), text)
    elif kind < 0.3:
        text = '<a href="%s.html#%s">%s</a> %s' % (rng.choice(idents), rng.choice(idents), rng.choice(idents), text)
    sentences.append('<div class="section-content"><p class="paragraph">' + text + "</p></div>\n")
nav = "".join(
    '<li class="nav-item"><a class="nav-link" href="../section%d/index.html">Section %d: reference and guides</a></li>'
    % (k, k) for k in range(4))
head = ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>%s</title><link rel="stylesheet" '
        'href="../style.css"><script src="../search.js"></script></head>\n<body><nav class="toc"><ul>' + nav
        + "</ul></nav><main><h1>%s</h1>\n")
tail_words = int(os.environ.get("TAIL_WORDS", "0"))
tail_rng = random.Random(20261206)
if tail_words:
    tail_vocab = ["".join(tail_rng.choice(letters) for _ in range(tail_rng.randint(5, 11))) for _ in range(200000)]
    tail_weights = list(itertools.accumulate(1.0 / (i + 1) for i in range(len(tail_vocab))))
tail = "</main><footer>Generated documentation. Copyright the authors.</footer></body></html>\n"

root = os.path.join(out, name + ".docset", "Contents")
documents = os.path.join(root, "Resources", "Documentation" if layout == "apple" else "Documents")
prefix = "Documentation/" if layout == "apple" else ""
os.makedirs(documents, exist_ok=True)
with open(os.path.join(root, "Info.plist"), "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>'
            "<key>CFBundleIdentifier</key><string>%s</string><key>CFBundleName</key><string>%s</string>"
            "<key>DocSetPlatformFamily</key><string>bench</string></dict></plist>\n" % (name.lower(), name))
index = sqlite3.connect(os.path.join(root, "Resources", "docSet.dsidx"))
if layout == "dash":
    index.execute("CREATE TABLE searchIndex(id INTEGER PRIMARY KEY, name TEXT, type TEXT, path TEXT)")
else:
    index.executescript("""
        CREATE TABLE ZTOKENTYPE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTYPENAME VARCHAR);
        CREATE TABLE ZFILEPATH (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPATH VARCHAR);
        CREATE TABLE ZTOKENMETAINFORMATION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOKEN INTEGER,
          ZFILE INTEGER, ZANCHOR VARCHAR, ZDECLARATION VARCHAR, ZABSTRACT VARCHAR);
        CREATE TABLE ZTOKEN (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOKENTYPE INTEGER,
          ZMETAINFORMATION INTEGER, ZTOKENNAME VARCHAR, ZTOKENUSR VARCHAR);
        CREATE INDEX ZTOKEN_ZTOKENTYPE_INDEX ON ZTOKEN (ZTOKENTYPE);
        INSERT INTO ZTOKENTYPE(Z_PK, ZTYPENAME) VALUES (1, 'func');
        """)
rows = []
total = 0
for i in range(count):
    folder = os.path.join(documents, "section%d" % (i // 1000))
    if i % 1000 == 0:
        os.makedirs(folder, exist_ok=True)
    size = rng.randint(2048, 12288)
    name = rng.choice(idents)
    parts = [head % (name, name)]
    if tail_words:
        parts.append('<p class="see-also">%s</p>\n'
                     % " ".join(tail_rng.choices(tail_vocab, cum_weights=tail_weights, k=tail_words)))
    length = sum(map(len, parts)) + len(tail)
    while length < size:
        sentence = rng.choice(sentences)
        parts.append(sentence)
        length += len(sentence)
    page = ("".join(parts)[: size - len(tail)] + tail).encode()
    with open(os.path.join(folder, "page%d.html" % i), "wb") as f:
        f.write(page)
    total += len(page)
    rows.append((name, "Function", prefix + "section%d/page%d.html" % (i // 1000, i)))
extra = random.Random(entries)
for k in range(max(0, entries - count)):
    i = extra.randrange(count)
    member = "%s.%s%d" % (extra.choice(idents), extra.choice(idents), k % 97)
    rows.append((member, "Method", "section%d/page%d.html#%s" % (i // 1000, i, member)))
if layout == "dash":
    index.executemany("INSERT INTO searchIndex(name, type, path) VALUES (?, ?, ?)", rows)
else:
    keys = range(1, len(rows) + 1)
    index.executemany("INSERT INTO ZFILEPATH(Z_PK, ZPATH) VALUES (?, ?)", [(k, r[2]) for k, r in zip(keys, rows)])
    index.executemany("INSERT INTO ZTOKENMETAINFORMATION(Z_PK, ZTOKEN, ZFILE) VALUES (?, ?, ?)",
                      [(k, k, k) for k in keys])
    index.executemany("INSERT INTO ZTOKEN(Z_PK, ZTOKENTYPE, ZMETAINFORMATION, ZTOKENNAME) VALUES (?, 1, ?, ?)",
                      [(k, k, r[0]) for k, r in zip(keys, rows)])
index.commit()
index.close()
print("generated %d pages, %d bytes of HTML, %d index entries" % (count, total, len(rows)))
