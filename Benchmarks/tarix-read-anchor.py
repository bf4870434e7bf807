#!/usr/bin/env python3
"""The anchor of Benchmarks/tarix-read-bench: reads the documents named in SAMPLE (one per line, relative to the
documents folder) out of a tarix store the way Zeal's reader does (zealdocs/zeal src/libs/util/tarixarchive.cpp):
the index open once, `SELECT hash FROM tarindex WHERE path = ?` per document, the archive opened per read, raw
inflate (-MAX_WBITS) from the record's offset in 64 KiB reads until the record's `length` blocks are out, then the
tar record parsed (a GNU long name first, as libarchive would). Python's zlib and sqlite3 are the same C libraries.
Prints p50 / p99 / max wall latency per document and p50 / p99 of its CPU time, in milliseconds.

usage: tarix-read-anchor.py ARCHIVE INDEX PREFIX SAMPLE     (PREFIX: the index's `X.docset/` root, as Zeal strips it)
"""
import sqlite3
import sys
import time
import zlib

archive, index, prefix, sample = sys.argv[1:5]
pages = [line.rstrip("\n") for line in open(sample, encoding="utf-8") if line.strip()]
db = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
CHUNK = 64 * 1024


def read(path):
    row = db.execute("SELECT hash FROM tarindex WHERE path = ?", (prefix + path,)).fetchone()
    _, offset, blocks = (int(x) for x in row[0].split(" "))
    raw = blocks * 512
    out = bytearray()
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    with open(archive, "rb") as f:
        f.seek(offset)
        while len(out) < raw:
            data = f.read(CHUNK)
            if not data:
                break
            out += inflater.decompress(data, raw - len(out))
            while inflater.unconsumed_tail and len(out) < raw:
                out += inflater.decompress(inflater.unconsumed_tail, raw - len(out))
    at = 0
    while True:  # GNU long-name ('L') and pax ('x') headers come before the file's own header
        header = out[at:at + 512]
        size = int(header[124:136].split(b"\0")[0].strip() or b"0", 8)
        at += 512
        if header[156:157] in (b"L", b"x", b"K", b"g"):
            at += (size + 511) // 512 * 512
            continue
        return bytes(out[at:at + size])


latencies = []
cpu = []  # CPU time of the process per read: the work without the waits a loaded machine adds
total = 0
for page in pages:
    start, start_cpu = time.perf_counter(), time.process_time()
    total += len(read(page))
    latencies.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
latencies.sort()
cpu.sort()


def ms(values, q):
    return "%.3f" % (values[min(len(values) - 1, int(q * len(values)))] * 1000)


print(f"anchor reads={len(latencies)} bytes={total} p50_ms={ms(latencies, 0.5)} p99_ms={ms(latencies, 0.99)} "
      f"max_ms={ms(latencies, 1.0)} cpu_p50_ms={ms(cpu, 0.5)} cpu_p99_ms={ms(cpu, 0.99)}")
