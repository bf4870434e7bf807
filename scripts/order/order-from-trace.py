#!/usr/bin/env python3
"""Turns the functions docsync ran (functrace.so logs) into an lld --symbol-ordering-file.

usage: order-from-trace.py BINARY LINKER_MAP TRACE_FILE... > docsync.order

Functions are listed in the order they first ran, every name at a traced address (aliases included). Functions
that share a large input section with others (a whole object's `.text`, not compiled with function sections) are
left out: ordering them would drag the entire section, mostly cold, into the hot region.
"""
import re
import subprocess
import sys

MAX_SHARED_SECTION = 32 * 1024


def main():
    binary, linker_map, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    order, seen = [], set()
    for path in sorted(traces, key=lambda p: int(p.rsplit(".", 1)[1])):  # trace.PID, in run order
        for line in open(path):
            address = int(line, 16)
            if address not in seen:
                seen.add(address)
                order.append(address)

    section_of, sizes, current = {}, {}, None
    row = re.compile(r"^\s*([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+(\d+)\s+(.*)$")
    for line in open(linker_map):
        m = row.match(line)
        if not m:
            continue
        rest = m.group(5).strip()
        if ":(" in rest:
            current, sizes[rest] = rest, int(m.group(3), 16)
        elif rest.startswith(".") and " " not in rest:
            current = None
        elif current is not None:
            section_of.setdefault(rest, current)

    names_at = {}
    nm = subprocess.run(["nm", "-S", "-n", "--defined-only", binary], capture_output=True, text=True, check=True)
    for line in nm.stdout.splitlines():
        parts = line.split()
        if len(parts) < 4 or parts[2] not in "tTwW" or int(parts[1], 16) == 0:
            continue
        names_at.setdefault(int(parts[0], 16), []).append(parts[3])

    names, listed = [], set()
    for address in order:
        for name in names_at.get(address, []):
            section = section_of.get(name)
            if section and sizes[section] > MAX_SHARED_SECTION and not section.split(":(")[1].startswith(".text."):
                continue
            if name not in listed:
                listed.add(name)
                names.append(name)
    sys.stdout.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main()
