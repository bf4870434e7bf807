#!/usr/bin/env python3
"""Writes the hostile feed shapes a hostile server sends (and the heaviest shapes the caps still accept) into a folder.

Usage: Benchmarks/hostile-feeds.py DIR     (files are rewritten only when missing)
"""
import os
import sys

ATOM = '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:docset="http://developer.apple.com/rss/docset_extensions">'


def write(path, chunks):
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return
    with open(path + ".tmp", "w") as out:
        for chunk in chunks:
            out.write(chunk)
    os.rename(path + ".tmp", path)


def attributes(count):  # one element with COUNT attributes (100k took 11 s, 300k 91 s before the cap)
    yield ATOM + "<entry "
    yield " ".join(f'a{i}="v"' for i in range(count))
    yield "><id>x</id></entry></feed>\n"


def entries(count, body):  # COUNT small entries (500k in 16 MB took 465 MB before the cap)
    yield ATOM
    for i in range(count):
        yield body.format(i=i)
    yield "</feed>\n"


def widest_accepted(size):  # elements with 64 attributes each (the cap) until SIZE bytes: libxml2 is slowest
    yield ATOM
    element = "<x " + " ".join(f'a{i}="v"' for i in range(64)) + "/>\n"
    for _ in range(size // len(element)):
        yield element
    yield "</feed>\n"


def fattest_entries(count, size):  # the most entries the cap allows, each as large as the size cap allows
    yield ATOM
    pad = "p" * (size // count - 400)
    for i in range(count):
        yield (f'<entry><id>tag:x,2026:{i}</id><title>Docset {i} {pad}</title>'
               f'<link rel="enclosure" href="https://x.example/{i}/{pad[:100]}.tgz" length="{i}"/>'
               f'<docset:identifier>org.x.{i}</docset:identifier><docset:version>{i}</docset:version></entry>\n')
    yield "</feed>\n"


def huge_text(size):  # one title of SIZE bytes of short words (libxml2's text node limit is 10 MB)
    yield ATOM + "<title>"
    yield "a " * (size // 2)
    yield "</title></feed>\n"


def long_titles(size, title):  # entries whose titles are TITLE bytes of short words, until SIZE bytes
    body = "a " * (title // 2)
    yield ATOM
    for i in range(size // (title + 60)):
        yield f"<entry><id>{i}</id><title>{body}</title></entry>\n"
    yield "</feed>\n"


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    write(f"{folder}/attrs-100k.atom", attributes(100_000))
    write(f"{folder}/attrs-300k.atom", attributes(300_000))
    write(f"{folder}/entries-500k.atom", entries(500_000, "<entry><id>tag:x,{i}</id></entry>\n"))
    write(f"{folder}/tiny-950k.atom", entries(950_000, "<entry><id>t{i}</id></entry>\n"))
    write(f"{folder}/max-attrs-30mib.atom", widest_accepted(30 << 20))
    write(f"{folder}/max-entries-30mib.atom", fattest_entries(10_000, 30 << 20))
    write(f"{folder}/huge-title-9mb.atom", huge_text(9_000_000))
    write(f"{folder}/max-titles-30mib.atom", long_titles(30 << 20, 64_000))


main()
