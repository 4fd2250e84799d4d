#!/usr/bin/env python3
"""expect.py: t4220's reading of a profile's stacks, named without proftool's code.
Reads `go tool pprof -raw -symbolize=none` of a profile on stdin (go's own parse: the
samples' location ids, each location's address and mapping, the mappings), turns each
address into its binary's own address as pprof's GetBase does (readelf -lW gives the
executable segment), names it with `addr2line -a -f -i -C -e BINARY` (every address of
a binary in one call; innermost frame first) and prints the collapsed stacks,
root first, with their sample counts (first value), sorted. An address addr2line
cannot name is "0x<address>", as a frame without a name is printed.
Usage: expect.py < raw.txt"""
import re
import subprocess
import sys


def text_segment(path, offset):
    """(p_offset, p_vaddr) of the executable PT_LOAD holding file offset `offset`"""
    out = subprocess.run(["readelf", "-lW", path], capture_output=True, text=True).stdout
    best = None
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 8 and f[0] == "LOAD" and "E" in f[6:-1]:
            off, vaddr, memsz = int(f[1], 16), int(f[2], 16), int(f[5], 16)
            if best is None or off <= offset < off + memsz:
                best = (off, vaddr)
    return best


def main():
    raw = sys.stdin.read().splitlines()
    part, samples, locs, maps = None, [], {}, {}
    for line in raw:
        if line.startswith(("Samples:", "Locations", "Mappings")):
            part = line.split()[0].rstrip(":")
            continue
        if part == "Samples":
            m = re.match(r"\s*(\d+)\s.*?:\s*([\d ]*)$", line)
            if m:
                samples.append((int(m.group(1)), [int(x) for x in m.group(2).split()]))
        elif part == "Locations":
            m = re.match(r"\s*(\d+): 0x([0-9a-f]+) M=(\d+)", line)
            if m:
                locs[int(m.group(1))] = (int(m.group(2), 16), int(m.group(3)))
        elif part == "Mappings":
            m = re.match(r"(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x([0-9a-f]+) (\S+)", line)
            if m:
                maps[int(m.group(1))] = (int(m.group(2), 16), int(m.group(4), 16), m.group(5))
    names = {}
    for mid, (start, offset, path) in maps.items():
        addrs = sorted({a for a, m in locs.values() if m == mid})
        if not addrs:
            continue
        seg = text_segment(path, offset)
        base = start - offset + (seg[0] - seg[1] if seg else 0)
        out = subprocess.run(["addr2line", "-a", "-f", "-i", "-C", "-e", path],
                             input="".join("%x\n" % (a - base) for a in addrs),
                             capture_output=True, text=True).stdout.splitlines()
        i, k = 0, -1
        while i < len(out):
            if out[i].startswith("0x"):
                k += 1
                names[addrs[k]] = []
                i += 1
                continue
            name = out[i]
            names[addrs[k]].append("0x%x" % addrs[k] if name == "??" else name)
            i += 2
    stacks = {}
    for count, ids in samples:
        frames = []
        for lid in ids:  # leaf first
            frames.extend(names.get(locs[lid][0], ["0x%x" % locs[lid][0]]))
        key = ";".join(reversed(frames))
        stacks[key] = stacks.get(key, 0) + count
    for key in sorted(stacks):
        print("%s %d" % (key, stacks[key]))


main()
