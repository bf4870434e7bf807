#!/usr/bin/env python3
"""The anchor and the reference of Benchmarks/fulltext-bench: pages' visible text read with Python's html.parser
(script, style and template left out, the title apart, a break at every element that is not inline: the rules
docsync's libxml2 reader follows), then

  build DOCUMENTS DB        the anchor: an SQLite FTS5 index of that text (sqlite3 module; the same contentless
                            schema and tokenizer as docsync's), like `tar -xzf` + a script a user would write
  truth DOCUMENTS QUERIES [PREFIX]
                            prints, per query line (a word, or a "quoted phrase"), the pages whose visible text
                            (title or body) holds it, as JSON lines {"query": ..., "pages": [...]}; each page
                            relative to DOCUMENTS, after PREFIX (`Documentation/` for Apple's layout, whose pages
                            readers reach as Documents/Documentation/...)
  sample DOCUMENTS N SEED   prints N words and N/3 two-word phrases drawn from the pages' text (seeded)
  mix DOCUMENTS N SEED      prints N queries `kind<TAB>query` for the query benchmark, the kinds in turn: rare (a word
                            on one of 200 sampled pages), common (one or two words on 90% of them), phrase (two
                            consecutive words of a page), prefix (3-4 letters of a page's word, then *), exclusion
                            (a common word, minus a word of a page); seeded"""
import html.parser
import json
import os
import random
import re
import sqlite3
import sys

INLINE = {"a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
          "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt", "u",
          "var"}
SKIPPED = {"script", "style", "template"}


class Visible(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.title, self.body, self.skip, self.in_title = [], [], 0, 0

    def handle_starttag(self, tag, attrs):
        if tag in SKIPPED:
            self.skip += 1
        elif tag == "title":
            self.in_title += 1
        elif tag not in INLINE:
            self.body.append("\n")

    def handle_endtag(self, tag):
        if tag in SKIPPED:
            self.skip = max(0, self.skip - 1)
        elif tag == "title":
            self.in_title = max(0, self.in_title - 1)
        elif tag not in INLINE:
            self.body.append("\n")

    def handle_data(self, data):
        if self.skip:
            return
        (self.title if self.in_title else self.body).append(data)


def visible(path):
    parser = Visible()
    with open(path, "rb") as f:
        parser.feed(f.read().decode("utf-8", "replace"))
    # No close(): it would hand a tag left unterminated at the end of the file (the generator cuts pages anywhere)
    # to handle_data as text; HTML's tokenizer drops a tag that meets the end of the file, and so does libxml2.

    return " ".join("".join(parser.title).split()), " ".join("".join(parser.body).split())


def pages(documents):
    for folder, _, files in os.walk(documents):
        for name in sorted(files):
            if name.lower().endswith((".html", ".htm")):
                path = os.path.join(folder, name)
                yield os.path.relpath(path, documents), path


WORD = re.compile(r"[^\W_]+", re.UNICODE)


def tokens(text):
    return [w.lower() for w in WORD.findall(text)]


def build(documents, db):
    con = sqlite3.connect(db)
    con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                      "CREATE TABLE pages(id INTEGER PRIMARY KEY, path TEXT, title TEXT);"
                      "CREATE VIRTUAL TABLE text USING fts5(title, body, content='', "
                      "tokenize='unicode61 remove_diacritics 2');")
    with con:
        for rowid, (page, path) in enumerate(pages(documents), 1):
            title, body = visible(path)
            con.execute("INSERT INTO pages VALUES (?, ?, ?)", (rowid, page, title))
            con.execute("INSERT INTO text(rowid, title, body) VALUES (?, ?, ?)", (rowid, title, body))
    con.execute("INSERT INTO text(text) VALUES('optimize')")
    con.commit()
    con.close()


def truth(documents, queries, prefix=""):
    wanted = []
    for line in open(queries):
        line = line.strip()
        if line:
            wanted.append((line, tokens(line)))
    found = {q: [] for q, _ in wanted}
    for page, path in pages(documents):
        title, body = visible(path)
        fields = [tokens(title), tokens(body)]
        for query, words in wanted:
            n = len(words)
            if any(any(field[i:i + n] == words for i in range(len(field) - n + 1)) for field in fields):
                found[query].append(prefix + page)
    for query, _ in wanted:
        print(json.dumps({"query": query, "pages": sorted(found[query])}))


def sample(documents, n, seed):
    rng = random.Random(seed)
    all_pages = list(pages(documents))
    picked = rng.sample(all_pages, min(len(all_pages), 40))
    words, phrases = set(), set()
    for _, path in picked:
        body = tokens(visible(path)[1])
        if len(body) < 3:
            continue
        for _ in range(3):
            words.add(rng.choice(body))
        i = rng.randrange(len(body) - 1)
        phrases.add('"%s %s"' % (body[i], body[i + 1]))
    for w in sorted(words)[:n]:
        print(w)
    for p in sorted(phrases)[: max(1, n // 3)]:
        print(p)


def mix(documents, n, seed):
    rng = random.Random(seed)
    all_pages = [path for _, path in pages(documents)]
    bodies = [tokens(visible(path)[1]) for path in rng.sample(all_pages, min(len(all_pages), 200))]
    bodies = [b for b in bodies if len(b) > 2]
    df = {}
    for body in bodies:
        for w in set(body):
            df[w] = df.get(w, 0) + 1
    common = sorted(w for w, c in df.items() if c >= 0.9 * len(bodies))
    rare = sorted(w for w, c in df.items() if c == 1)
    for i in range(n):
        kind = ("rare", "common", "phrase", "prefix", "exclusion")[i % 5]
        body = rng.choice(bodies)
        if kind == "rare":
            query = rng.choice(rare)
        elif kind == "common":
            query = " ".join(rng.sample(common, 1 + (i // 5) % 2))
        elif kind == "phrase":
            j = rng.randrange(len(body) - 1)
            query = '"%s %s"' % (body[j], body[j + 1])
        elif kind == "prefix":
            word = rng.choice([w for w in body if len(w) >= 4] or ["abcd"])
            query = word[: rng.randint(3, min(4, len(word) - 1))] + "*"
        else:
            query = "%s -%s" % (rng.choice(common), rng.choice(body))
        print("%s\t%s" % (kind, query))


if __name__ == "__main__":
    command = sys.argv[1]
    if command == "build":
        build(sys.argv[2], sys.argv[3])
    elif command == "truth":
        truth(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else "")
    elif command == "mix":
        mix(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif command == "sample":
        sample(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit(__doc__)
